// A file written from the contracts by a script: formatted as the repo formats it, then written,
// or with `--check`, compared with what is committed (exit 1 and `stale` when it differs).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Writes (or checks) `out` as `text` formatted by prettier; `wrote` is the line printed after a write. */
export function writeGenerated(root, out, text, { stale, wrote }) {
  const formatted = execFileSync('npx', ['prettier', '--stdin-filepath', out], {
    cwd: root,
    input: text,
  }).toString();
  const name = path.relative(root, out);
  if (process.argv.includes('--check')) {
    if (readFileSync(out, 'utf8') !== formatted) {
      console.error(`${name} ${stale}`);
      process.exit(1);
    }
    return;
  }
  writeFileSync(out, formatted);
  console.log(`Wrote ${name}${wrote}`);
}
