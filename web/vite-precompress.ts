import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { type Plugin } from 'vite';

const compressible = /\.(js|mjs|css|html|svg|json|webmanifest|txt)$/;
const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const full = path.join(dir, entry.name);
      return entry.isDirectory() ? filesUnder(full) : Promise.resolve([full]);
    }),
  );
  return nested.flat();
}

/**
 * Writes `name.br` and `name.gz` beside every text file of the build, at the strongest settings
 * (done once here rather than on every request), for the gateway to answer by Accept-Encoding.
 * A copy that would not be smaller is left out. Runs after the service worker is written, so that
 * sw.js has its copies too.
 */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'cm-precompress',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle: {
      order: 'post',
      sequential: true,
      async handler() {
        const files = (await filesUnder(outDir)).filter((file) => compressible.test(file));
        await Promise.all(
          files.map(async (file) => {
            const [content, { size }] = await Promise.all([readFile(file), stat(file)]);
            const [br, gz] = await Promise.all([
              brotli(content, {
                params: {
                  [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
                  [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
                  [constants.BROTLI_PARAM_SIZE_HINT]: size,
                },
              }),
              gzipped(content, { level: constants.Z_BEST_COMPRESSION }),
            ]);
            if (br.length < size) await writeFile(`${file}.br`, br);
            if (gz.length < size) await writeFile(`${file}.gz`, gz);
          }),
        );
      },
    },
  };
}
