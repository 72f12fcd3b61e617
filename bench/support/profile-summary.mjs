// Where a process's CPU went, from a V8 .cpuprofile (bench/api's BENCH_CPU_PROF_DIR writes one):
//   node bench/support/profile-summary.mjs <file.cpuprofile> [µs of CPU per request]
// Each sample is charged to the nearest frame on its stack that is a package or our own code, so
// that node's work (socket writes, JSON, crypto) counts for whoever asked for it; garbage
// collection stays apart. Given the process's CPU per request (bench/api prints it), each share
// is also turned into microseconds per request.
import { readFileSync } from 'node:fs';

const [file, usArg] = process.argv.slice(2);
/**
 * PROFILE_LAST_S: only the samples of the profile's last seconds (bench/api's measured 30 s end
 * when the services are stopped): under heavy load a run serves few requests, and start-up,
 * sign-ins and warm-up would otherwise weigh in the shares.
 */
const lastS = Number(process.env.PROFILE_LAST_S ?? 0);
if (!file) {
  console.error('usage: node bench/support/profile-summary.mjs <file.cpuprofile> [µs per request]');
  process.exit(1);
}
const usPerRequest = Number(usArg) || 0;
const profile = JSON.parse(readFileSync(file, 'utf8'));

const NODE_IO = '(node: HTTP parsing, socket reads and writes)';
const START_UP = '(start-up: loading modules)';

/**
 * A package under node_modules, our library or service, node's I/O or module loading, or null for
 * other frames of node's and V8's own (charged further up the stack).
 */
function ownerOf({ url }) {
  if (/^node:(_http_|net$|stream|internal\/stream|internal\/streams\/)/.test(url)) return NODE_IO;
  if (/^node:internal\/modules\//.test(url)) return START_UP;
  // The innermost package: Nest's adapter carries its own copy of Express under its node_modules.
  const pkg = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pkg) return pkg[1];
  const ours = /\/(libs|services)\/([^/]+)\/(?:dist|src)\/(.*)$/.exec(url);
  if (ours) return `${ours[1]}/${ours[2]}/${ours[3].replace(/\.[jt]s$/, '')}`;
  return null;
}

/** What the layers add up to in the gateway's request path. */
const categories = [
  [START_UP, /^\(start-up|^require-in-the-middle$|^module-details-from-path$/],
  ['OpenTelemetry (spans, context)', /^@opentelemetry\/|^shimmer$|light-spans$|http-trace-context$/],
  ['Nest (routing, guards, params, response)', /^@nestjs\/|^rxjs|^reflect-metadata/],
  [
    'Express (router, middleware chain, body parser)',
    /^(express|router|body-parser|raw-body|parseurl|type-is|content-type|finalhandler|on-finished|on-headers|helmet|qs|serve-static|send|mime-types|media-typer|encodeurl|escape-html|depd|statuses|vary|fresh|etag|accepts|negotiator)$/,
  ],
  [
    'sessions (cookie check, session rows, PostgreSQL client)',
    /^(express-session|connect-pg-simple|cookie|cookie-signature|uid-safe|crc|pg|pg-pool|pg-protocol|pg-types|postgres-.*)$|session\//,
  ],
  [
    'NATS client (requests, replies)',
    /^nats$|nats\/rpc-client|nats\/reply-inbox|nats\/namespaced-transport|nats\/trace-headers/,
  ],
  ['zod (contract parsing of params and replies)', /^zod$/],
  ['metrics, logging', /^prom-client$|metrics\/|logger/],
  ['our other code (access check, security headers, controllers)', /^(libs|services)\//],
];

const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const hits = new Map();
const from = lastS > 0 ? profile.endTime - lastS * 1e6 : -Infinity;
let at = profile.startTime;
let kept = 0;
profile.samples.forEach((id, i) => {
  at += profile.timeDeltas?.[i] ?? 0;
  if (at < from) return;
  kept++;
  hits.set(id, (hits.get(id) ?? 0) + 1);
});
const spanUs =
  lastS > 0
    ? Math.min(lastS * 1e6, profile.endTime - profile.startTime)
    : profile.endTime - profile.startTime;
const perSampleMs = spanUs / 1000 / kept;

const byOwner = new Map();
let busy = 0;
for (const [id, count] of hits) {
  const leaf = nodes.get(id).callFrame;
  let owner;
  if (leaf.functionName === '(idle)') continue;
  if (leaf.functionName === '(garbage collector)') owner = '(garbage collector)';
  else {
    for (let cur = id; cur !== undefined && !owner; cur = parent.get(cur))
      owner = ownerOf(nodes.get(cur).callFrame);
    // Nothing of ours or a package's on the stack: node's HTTP parser, socket and timer callbacks.
    owner ??= NODE_IO;
  }
  const ms = count * perSampleMs;
  busy += ms;
  byOwner.set(owner, (byOwner.get(owner) ?? 0) + ms);
}

const byCategory = new Map();
for (const [owner, ms] of byOwner) {
  const category = categories.find(([, re]) => re.test(owner))?.[0] ?? owner;
  byCategory.set(category, (byCategory.get(category) ?? 0) + ms);
}

// Loading modules happens once, before the first request: not a share of the requests' CPU.
const startUp = byCategory.get(START_UP) ?? 0;
byCategory.delete(START_UP);
byOwner.delete(START_UP);
busy -= startUp;

const table = (title, rows, limit) => {
  const lines = [
    `| ${title} | share of busy CPU |${usPerRequest ? ' µs per request |' : ''}`,
    `|---|---|${usPerRequest ? '---|' : ''}`,
  ];
  for (const [name, ms] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, limit)) {
    const share = ms / busy;
    lines.push(
      `| ${name} | ${(100 * share).toFixed(1)} % |${usPerRequest ? ` ${Math.round(share * usPerRequest)} |` : ''}`,
    );
  }
  return lines.join('\n');
};
console.log(
  `${file}: ${(busy / 1000).toFixed(1)} s busy serving (and ${(startUp / 1000).toFixed(1)} s loading modules) of ${(spanUs / 1e6).toFixed(1)} s profiled${lastS > 0 ? ' (its last seconds)' : ''}\n`,
);
console.log(table('layer', byCategory, 20));
console.log();
console.log(table('package or file', byOwner, 30));
