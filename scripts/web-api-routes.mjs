// Writes web/src/lib/api-routes.ts: the API's route table as the web app reads it at run time
// (method, path, flags), without the zod schemas. The contracts' table references every
// schema, so importing it put zod and all the contracts on every first screen (issue 37's budget);
// the web checks replies against the schemas in a chunk that loads with the first call instead
// (web/src/lib/api.ts). The written table is typed as the contracts' (ReplyOf, ArgsOf still read
// the schemas' types), and web/src/lib/api-routes.spec.ts fails when it differs from them.
// Reads the built contracts (libs/contracts/dist: `npx tsc -b`). `--check` fails instead of writing.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeGenerated } from './generated-file.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'web/src/lib/api-routes.ts');
const { apiRoutes } = createRequire(import.meta.url)(path.join(root, 'libs/contracts/dist/index.js'));

/** What each route keeps: its plain fields as they are, `true` where the contract has a schema. */
export const plainFields = [
  'method',
  'path',
  'bodyContentType',
  'responseContentType',
  'idempotent',
  'versioned',
];
export const schemaFields = ['params', 'query', 'body', 'response'];
/**
 * The reads the phone keeps for offline use (web/src/lib/offline/reads.ts): the inventory's, by
 * their tag. Marked `kept: true` in place of every route's tag, which the app needs for nothing
 * else: the tags cost every first screen 0.2 kB.
 */
export const keptTags = ['Buildings', 'Rooms', 'Equipment'];
export const isKept = (route) => route.method === 'GET' && keptTags.includes(route.tag);

const lines = Object.entries(apiRoutes).map(([name, route]) => {
  const fields = [
    ...plainFields.filter((f) => route[f] !== undefined).map((f) => `${f}: ${JSON.stringify(route[f])}`),
    ...schemaFields.filter((f) => route[f] !== undefined).map((f) => `${f}: true`),
    ...(isKept(route) ? ['kept: true'] : []),
  ];
  return `  ${name}: { ${fields.join(', ')} },`;
});

const text = `// Written by scripts/web-api-routes.mjs from the contracts' apiRoutes: do not edit.
// The route table without its schemas (\`true\` where a route has one), so that the first screen
// loads no zod; api-routes.spec.ts fails when it and the contracts differ.
import { type WebRoutes } from './api-route-types';

export const apiRoutes = {
${lines.join('\n')}
} as const as unknown as WebRoutes;
`;

writeGenerated(root, out, text, {
  stale: 'differs from the contracts: node scripts/web-api-routes.mjs',
  wrote: ` (${lines.length} routes)`,
});
