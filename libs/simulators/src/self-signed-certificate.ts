import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Certificate {
  key: string;
  cert: string;
  notAfter: Date;
}

// `openssl ca` is the one openssl 3.0 command that sets both validity dates, which an expired
// certificate needs (`req -x509 -days` counts only forward from now).
const CA_CONFIG = `[ca]
default_ca = simulator
[simulator]
database = index.txt
new_certs_dir = .
serial = serial
default_md = sha256
policy = anything
unique_subject = no
[anything]
commonName = supplied
`;

/** YYYYMMDDHHMMSSZ, as `openssl ca -startdate/-enddate` take it. */
function asn1Time(date: Date): string {
  return `${date.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;
}

/**
 * A self-signed P-256 certificate valid from `notBefore` to `notAfter` (either may be in the
 * past), made with the openssl command line in a temporary folder that is removed afterwards.
 */
export async function selfSignedCertificate(
  commonName: string,
  notBefore: Date,
  notAfter: Date,
): Promise<Certificate> {
  const dir = await mkdtemp(join(tmpdir(), 'cm-cert-'));
  try {
    await Promise.all([
      writeFile(join(dir, 'ca.cnf'), CA_CONFIG),
      writeFile(join(dir, 'index.txt'), ''),
      writeFile(join(dir, 'serial'), `${Date.now().toString(16).padStart(16, '0')}\n`),
    ]);
    const openssl = (...args: string[]) => run('openssl', args, { cwd: dir, timeout: 30_000 });
    await openssl(
      'req',
      '-new',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:P-256',
      '-nodes',
      '-keyout',
      'key.pem',
      '-out',
      'request.pem',
      '-subj',
      `/CN=${commonName}`,
    );
    await openssl(
      'ca',
      '-batch',
      '-notext',
      '-config',
      'ca.cnf',
      '-selfsign',
      '-keyfile',
      'key.pem',
      '-in',
      'request.pem',
      '-out',
      'cert.pem',
      '-startdate',
      asn1Time(notBefore),
      '-enddate',
      asn1Time(notAfter),
    );
    const [key, cert] = await Promise.all([
      readFile(join(dir, 'key.pem'), 'utf8'),
      readFile(join(dir, 'cert.pem'), 'utf8'),
    ]);
    return { key, cert, notAfter: new Date(Math.floor(notAfter.getTime() / 1000) * 1000) };
  } catch (error) {
    const detail = (error as { stderr?: string }).stderr ?? (error as Error).message;
    throw new Error(`Could not make a certificate with openssl: ${detail}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
