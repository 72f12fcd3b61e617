// The API document, checked as its clients use it (a step of `npm test`, after the build):
//  1. writes the gateway's OpenAPI document to artifacts/api/openapi.json;
//  2. lints it with Redocly's recommended rules (redocly.yaml): any error or warning fails;
//  3. generates a typed client's types from it (openapi-typescript, artifacts/api/schema.ts) and
//     type-checks scripts/api-client/client-check.ts, which holds them against the contract registry.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'artifacts', 'api');
const documentFile = path.join(out, 'openapi.json');
mkdirSync(out, { recursive: true });

const { buildOpenApiDocument } = createRequire(import.meta.url)(
  path.join(root, 'services/gateway/dist/docs/openapi.js'),
);
const document = buildOpenApiDocument();
writeFileSync(documentFile, `${JSON.stringify(document, null, 2)}\n`);

const run = (command, args, options = {}) =>
  spawnSync(command, args, {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
    // Redocly would otherwise report usage to its makers and look for a newer version.
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    ...options,
  });

const lint = run('npx', ['redocly', 'lint', documentFile, '--format=json']);
let totals;
try {
  totals = JSON.parse(lint.stdout).totals;
} catch {
  console.error(`Redocly did not answer a report:\n${lint.stdout}\n${lint.stderr}`);
  process.exit(1);
}
if (totals.errors || totals.warnings) {
  const readable = run('npx', ['redocly', 'lint', documentFile, '--format=stylish']);
  console.error(readable.stdout);
  console.error(
    `The API document has ${totals.errors} errors and ${totals.warnings} warnings (redocly.yaml)`,
  );
  process.exit(1);
}
console.log(
  `Redocly's recommended rules: 0 errors, 0 warnings (${Object.keys(document.paths).length} paths)`,
);

const schema = astToString(await openapiTS(document));
writeFileSync(path.join(out, 'schema.ts'), schema);
const check = run('npx', ['tsc', '-p', 'scripts/api-client/tsconfig.json']);
if (check.status !== 0) {
  console.error(check.stdout, check.stderr);
  console.error('A client generated from the API document disagrees with the contract registry (above)');
  process.exit(1);
}
console.log('A client generated from the document type-checks against the contract registry');
