// Fails when the JavaScript that the first screen of an entry route needs is over its limit, counted
// as the gateway serves it: the precompressed brotli copy (what a phone over HTTPS takes; gzip is
// shown beside it). For each route: the entry chunk and what index.html preloads, the chunks that
// load on every first render (sign-in, or the signed-in shell; the toaster comes after the screen is drawn), the route's screen
// chunk, the reply check (every JSON answer, the session check's first, waits for it:
// lib/reply-check.ts and the schemas as data), and every chunk those import statically (Vite preloads them with the
// screen). What a screen fetches once it is drawn (its dialogs and forms, a tab other than the
// first, tooltips) is not counted. Also fails on a source map in the build, which the gateway
// would publish with the app.
// Reads web/dist when it is there; builds it when not (or with --build).
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, gzipSync } from 'node:zlib';

/**
 * Issue 37's goal, in kilobytes of 1000 bytes as Vite reports them, and the check's limit: every
 * route meets it (the heaviest, a room, 119.1 kB, of which the reply check without zod is 5 kB;
 * docs/benchmarks.md). A list's windowing code loads only when a long list is drawn.
 */
const goalKb = 120;

/** Each entry route and the chunks (by their module's file name) its first screen loads. */
// The reply check loads beside the first call (the session check) and its answer waits for it:
// the response schemas as data and their reader, without zod (web/src/lib/reply-check.ts).
const replyCheck = ['reply-check', 'reply-checks'];
// Answers whose schemas hold code the checker cannot copy (a transform, an object's refinement)
// are checked by zod (lib/api-schemas.ts), which then loads with every contract: no first screen
// reads one (the morning summary's settings and a building's quiet hours come after it is drawn).
const signedIn = [...replyCheck, 'signed-in-app'];
const routes = {
  '/sign-in': [...replyCheck, 'sign-in-page'],
  '/ and /buildings': [...signedIn, 'buildings-page'],
  '/buildings/:id/rooms': [...signedIn, 'rooms-page'],
  '/buildings/:id/labels': [...signedIn, 'room-labels-page'],
  '/rooms/:id': [...signedIn, 'room-route'],
  '/search': [...signedIn, 'search-page'],
  '/reports': [...signedIn, 'reports-page'],
  '/users': [...signedIn, 'users-page'],
  // The Monitoring tab: the others' chunks come when they are opened.
  '/settings': [...signedIn, 'settings-page'],
  '/settings/fleet': [...signedIn, 'fleet-page'],
  '/account': [...signedIn, 'account-page'],
  '/before-class': [...signedIn, 'before-class-page'],
};

const web = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'web');
// The gateway's variable: the build it would serve (a build elsewhere: vite build --outDir …).
const dist = process.env.WEB_DIST_DIR ? path.resolve(process.env.WEB_DIST_DIR) : path.join(web, 'dist');
const assets = path.join(dist, 'assets');
const indexHtml = path.join(dist, 'index.html');

if (!existsSync(indexHtml) || process.argv.includes('--build')) {
  console.log('Building the web app to measure it');
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', '--outDir', dist], {
    cwd: web,
    stdio: 'inherit',
  });
}

const names = readdirSync(assets);
const maps = names.filter((name) => name.endsWith('.map'));
if (maps.length > 0) {
  console.error(`The build has source maps (${maps.join(', ')}): set build.sourcemap to false.`);
  process.exit(1);
}

const html = readFileSync(indexHtml, 'utf8');
const entries = [
  ...html.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g),
  ...html.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g),
].map((m) => path.join(dist, m[1]));
if (!entries.some((src) => src.endsWith('.js'))) {
  console.error(`${indexHtml} loads no JavaScript module: is it a Vite build?`);
  process.exit(1);
}

/** The chunk Rollup named after a module: `buildings-page` → assets/buildings-page-<hash>.js. */
function chunkOf(module) {
  const found = names.filter((name) => new RegExp(`^${module}-[\\w-]{8}\\.js$`).test(name));
  if (found.length !== 1) {
    console.error(`No single chunk for ${module} in ${assets} (found ${found.length}): update routes`);
    process.exit(1);
  }
  return path.join(assets, found[0]);
}

// A static import in a built chunk: `import{a as b}from"./x.js"` or `import"./x.js"`. A dynamic
// `import("./x.js")` has a parenthesis before the quote and is left out, as it should be.
const staticImport = /\bimport\s*(?:[^;"'()]*?\bfrom\s*)?["'](\.\.?\/[^"']+\.js)["']/g;

/** What the gateway sends for a file: its precompressed copy when the build wrote one. */
const sizes = new Map();
function served(file) {
  if (!sizes.has(file)) {
    const code = readFileSync(file);
    const copy = (ext, compress) =>
      existsSync(`${file}.${ext}`) ? readFileSync(`${file}.${ext}`) : compress(code);
    sizes.set(file, { br: copy('br', brotliCompressSync).length, gzip: copy('gz', gzipSync).length });
  }
  return sizes.get(file);
}

/** The files and everything they import statically. */
function closure(files) {
  const seen = new Set();
  const pending = [...files];
  while (pending.length > 0) {
    const file = pending.pop();
    if (seen.has(file)) continue;
    seen.add(file);
    for (const m of readFileSync(file, 'utf8').matchAll(staticImport)) {
      pending.push(path.resolve(path.dirname(file), m[1]));
    }
  }
  return [...seen];
}

const kb = (bytes) => (bytes / 1000).toFixed(1);
const over = [];
console.log(
  `${'brotli'.padStart(8)} ${'gzip'.padStart(8)}  first screen's JavaScript (goal and limit ${goalKb} kB, brotli)`,
);
for (const [route, modules] of Object.entries(routes)) {
  const files = closure([...entries, ...modules.map(chunkOf)]);
  const total = files
    .map(served)
    .reduce((a, b) => ({ br: a.br + b.br, gzip: a.gzip + b.gzip }), { br: 0, gzip: 0 });
  console.log(
    `${kb(total.br).padStart(6)} kB ${kb(total.gzip).padStart(6)} kB  ${route} (${files.length} files)`,
  );
  if (process.argv.includes('--files')) {
    for (const file of files.sort((a, b) => served(b).br - served(a).br)) {
      console.log(`${kb(served(file).br).padStart(15)} kB  ${path.relative(dist, file)}`);
    }
  }
  if (total.br > goalKb * 1000) over.push(`${route}: ${kb(total.br)} kB`);
}
if (over.length > 0) {
  console.error(
    `Over the ${goalKb} kB goal: ${over.join('; ')}. Load what a part of a screen alone needs ` +
      'when it is used (React.lazy), not with the screen or the shell (--files lists the files).',
  );
  process.exit(1);
}
