// Fails when the JavaScript a first visit loads is over budget: the entry chunk that index.html
// loads plus every chunk it imports statically (what index.html modulepreloads), gzipped.
// Screens load on demand and do not count. Also fails on a source map in the build, which the
// gateway would publish with the app. Reads web/dist when it is there; builds it when not.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** Kilobytes of 1000 bytes, as Vite reports them. */
const budgetKb = 150;

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
const dist = path.join(web, 'dist');
const indexHtml = path.join(dist, 'index.html');

if (!existsSync(indexHtml) || process.argv.includes('--build')) {
  console.log('Building the web app to measure it');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: web, stdio: 'inherit' });
}

const maps = readdirSync(path.join(dist, 'assets')).filter((name) => name.endsWith('.map'));
if (maps.length > 0) {
  console.error(`The build has source maps (${maps.join(', ')}): set build.sourcemap to false.`);
  process.exit(1);
}

const html = readFileSync(indexHtml, 'utf8');
const entries = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => m[1]);
if (!entries.some((src) => src.endsWith('.js'))) {
  console.error(`${indexHtml} loads no JavaScript module: is it a Vite build?`);
  process.exit(1);
}

// A static import in a built chunk: `import{a as b}from"./x.js"` or `import"./x.js"`. A dynamic
// `import("./x.js")` has a parenthesis before the quote and is left out, as it should be.
const staticImport = /\bimport\s*(?:[^;"'()]*?\bfrom\s*)?["'](\.\.?\/[^"']+\.js)["']/g;

const files = new Map();
const pending = entries.map((src) => path.join(dist, src));
while (pending.length > 0) {
  const file = pending.pop();
  if (files.has(file)) continue;
  const code = readFileSync(file);
  files.set(file, gzipSync(code).length);
  for (const m of code.toString('utf8').matchAll(staticImport)) {
    pending.push(path.resolve(path.dirname(file), m[1]));
  }
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const total = [...files.values()].reduce((a, b) => a + b, 0);
for (const [file, size] of [...files].sort((a, b) => b[1] - a[1])) {
  console.log(`${kb(size).padStart(7)} kB  ${path.relative(dist, file)}`);
}
console.log(`${kb(total).padStart(7)} kB  initial JavaScript, gzipped (budget ${budgetKb} kB)`);
if (total > budgetKb * 1000) {
  console.error(
    `The first visit loads ${kb(total)} kB of JavaScript, over the ${budgetKb} kB budget. ` +
      'Load what a screen alone needs from that screen (React.lazy), not from the shell.',
  );
  process.exit(1);
}
