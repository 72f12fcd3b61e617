// Size rules, checked by `npm test` (scripts/test.mjs): no production source file over 400 lines
// and no function over 80, so a file stays readable in one sitting and a function on one screen.
// Fails listing every offender. `node scripts/code-size.mjs [root]` checks another tree.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 80;

const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));

// Kept over a limit on purpose, each with why. Paths are relative to the root; a function is
// named `path#name` as this script reports it.
const allowedFiles = new Map([
  // Data, not code: the list of passwords refused at sign-up, one a line.
  ['services/auth/src/passwords/common-passwords.ts', 'data'],
  // Generated from the contracts by scripts/web-api-routes.mjs (a spec checks it): one entry per route.
  ['web/src/lib/api-routes.ts', 'generated'],
  // Generated from the contracts by scripts/web-reply-checks.mjs (a spec checks it): their response schemas as data.
  ['web/src/lib/reply-checks.ts', 'generated'],
]);
// None kept today. An entry is `path#name`, with a comment saying why it stays long.
const allowedFunctions = new Map([]);

// Tests, their helpers and schema history do not count: migrations are written once and never
// read as a whole; generated files are not written by hand.
const skippedDirectories = new Set([
  'node_modules',
  'dist',
  'coverage',
  'migrations',
  'test',
  'tests',
  'testing',
  '__tests__',
]);
const isSource = (name) => /\.tsx?$/.test(name) && !/\.d\.ts$/.test(name);
const isSkippedFile = (name) => /\.(spec|int-spec|e2e-spec|generated)\.tsx?$/.test(name);

function* sources(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (!skippedDirectories.has(entry.name)) yield* sources(full);
    } else if (isSource(entry.name) && !isSkippedFile(entry.name)) yield full;
  }
}

function productionRoots() {
  const roots = [path.join(root, 'web', 'src')];
  for (const group of ['libs', 'services']) {
    let names = [];
    try {
      names = readdirSync(path.join(root, group));
    } catch {
      // A tree without this group has nothing in it to check.
    }
    for (const name of names) roots.push(path.join(root, group, name, 'src'));
  }
  return roots;
}

/** What a reader would call the function: its own name, or the name it is assigned to. */
function nameOf(node) {
  if (node.name && ts.isIdentifier(node.name)) return node.name.text;
  if (node.name) return node.name.getText();
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  const parent = node.parent;
  if (
    parent &&
    (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
  )
    return parent.name.getText();
  return '(anonymous)';
}

const isFunction = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isFunctionExpression(node) ||
  ts.isArrowFunction(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

function longFunctions(file, text) {
  const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const found = [];
  const visit = (node) => {
    if (isFunction(node) && node.body) {
      const first = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const last = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const lines = last - first + 1;
      if (lines > MAX_FUNCTION_LINES) found.push({ name: nameOf(node), line: first + 1, lines });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const problems = [];
const used = new Set();
for (const dir of productionRoots()) {
  for (const file of sources(dir)) {
    const relative = path.relative(root, file).split(path.sep).join('/');
    if (allowedFiles.has(relative)) {
      used.add(relative);
      continue;
    }
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    if (lines > MAX_FILE_LINES) problems.push(`${relative}: ${lines} lines (at most ${MAX_FILE_LINES})`);
    for (const fn of longFunctions(file, text)) {
      if (allowedFunctions.has(`${relative}#${fn.name}`)) {
        used.add(`${relative}#${fn.name}`);
        continue;
      }
      problems.push(
        `${relative}:${fn.line} ${fn.name}: ${fn.lines} lines (a function has at most ${MAX_FUNCTION_LINES})`,
      );
    }
  }
}

// An entry that no longer matches would later excuse a new offender of the same name.
for (const key of [...allowedFiles.keys(), ...allowedFunctions.keys()])
  if (!used.has(key)) problems.push(`${key}: allowed in scripts/code-size.mjs but not over a limit`);

if (problems.length) {
  console.error(`Over the size limits (${problems.length}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  console.error('Split them by responsibility, or list them in scripts/code-size.mjs with why.');
  process.exit(1);
}
console.log(`Size rules: no file over ${MAX_FILE_LINES} lines, no function over ${MAX_FUNCTION_LINES}.`);
