// Draws the app's icons (web/public/icons) with no image tool and no download: a white monitor
// with a green status dot on the header blue. `any` icons have rounded corners; the maskable one
// fills its square and keeps the drawing inside the central safe circle (40 % of the side), which
// a launcher may crop to any shape. Run again after changing the drawing; the PNGs are committed.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { deflateSync } from 'node:zlib';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'public', 'icons');

const blue = [0x1e, 0x3a, 0x8a];
const white = [0xff, 0xff, 0xff];
const green = [0x22, 0xc5, 0x5e];

/** Whether (x, y), in units of the side, lies in a rectangle with rounded corners. */
function inRoundedRect(x, y, [left, top, right, bottom], radius) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The drawing's colour at (x, y) in 0..1 of the drawing's own box, or null where it is empty. */
function drawing(x, y) {
  const screen = [0.18, 0.22, 0.82, 0.66];
  const border = 0.07;
  const inner = [screen[0] + border, screen[1] + border, screen[2] - border, screen[3] - border];
  if ((x - 0.5) ** 2 + (y - 0.44) ** 2 <= 0.085 ** 2) return green;
  if (inRoundedRect(x, y, screen, 0.06) && !inRoundedRect(x, y, inner, 0.02)) return white;
  if (inRoundedRect(x, y, [0.45, 0.65, 0.55, 0.76], 0)) return white;
  if (inRoundedRect(x, y, [0.32, 0.74, 0.68, 0.8], 0.03)) return white;
  return null;
}

/** RGBA pixels of one icon, four by four samples a pixel for smooth edges. */
function render(size, maskable) {
  const scale = maskable ? 0.72 : 1;
  const samples = 4;
  const pixels = Buffer.alloc(size * size * 4);
  for (let py = 0; py < size; py++) {
    for (let px = 0; px < size; px++) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy++) {
        for (let sx = 0; sx < samples; sx++) {
          const x = (px + (sx + 0.5) / samples) / size;
          const y = (py + (sy + 0.5) / samples) / size;
          const inside = maskable || inRoundedRect(x, y, [0, 0, 1, 1], 0.2);
          if (!inside) continue;
          const colour = drawing((x - 0.5) / scale + 0.5, (y - 0.5) / scale + 0.5) ?? blue;
          for (let c = 0; c < 3; c++) sum[c] += colour[c];
          sum[3] += 255;
        }
      }
      const n = samples * samples;
      const covered = sum[3] / 255;
      const at = (py * size + px) * 4;
      for (let c = 0; c < 3; c++) pixels[at + c] = covered ? Math.round(sum[c] / covered) : 0;
      pixels[at + 3] = Math.round(sum[3] / n);
    }
  }
  return pixels;
}

const crcTable = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
const crc32 = (bytes) => {
  let c = 0xffffffff;
  for (const b of bytes) c = crcTable[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
};

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

function png(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8); // 8 bits a channel, RGBA, deflate, no filter method, no interlace
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y++) {
    rows[y * (size * 4 + 1)] = 0; // each row unfiltered
    pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(rows, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

mkdirSync(out, { recursive: true });
const icons = [
  ['icon-192.png', 192, false],
  ['icon-512.png', 512, false],
  ['icon-maskable-512.png', 512, true],
  // iOS takes its home-screen icon from <link rel="apple-touch-icon">, drawn without transparency.
  ['apple-touch-icon-180.png', 180, true],
];
for (const [name, size, maskable] of icons) {
  writeFileSync(path.join(out, name), png(size, render(size, maskable)));
  console.log(`wrote ${path.relative(process.cwd(), path.join(out, name))}`);
}
