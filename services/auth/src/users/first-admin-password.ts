import { randomBytes } from 'node:crypto';
import { link, mkdir, open, stat, unlink } from 'node:fs/promises';
import path from 'node:path';
import { type Config } from '../config';
import { createSecret, inClusterApi, type KubernetesApi, SecretExistsError } from './kubernetes-secret';

/**
 * Where a generated first-administrator password goes: somewhere only an operator reads, never
 * the log (logs are shipped, kept and read by more people than the administrator).
 */
export interface PasswordDestination {
  /** For the log line: where to find it. */
  readonly where: string;
  /** Keeps the password; throws rather than keep it anywhere else. */
  save(username: string, password: string): Promise<void>;
}

type DestinationConfig = Pick<Config, 'ADMIN_PASSWORD_OUTPUT_FILE' | 'ADMIN_PASSWORD_SECRET'>;

export function passwordDestination(
  config: DestinationConfig,
  kubernetes: () => KubernetesApi = () => inClusterApi(),
): PasswordDestination {
  if (config.ADMIN_PASSWORD_SECRET) return secretDestination(config.ADMIN_PASSWORD_SECRET, kubernetes);
  if (config.ADMIN_PASSWORD_OUTPUT_FILE)
    return fileDestination(path.resolve(config.ADMIN_PASSWORD_OUTPUT_FILE));
  throw new Error(
    'There are no users yet and ADMIN_PASSWORD is not set: set it, or set ADMIN_PASSWORD_OUTPUT_FILE ' +
      '(a file) or ADMIN_PASSWORD_SECRET (a Kubernetes Secret) for where the generated password is kept',
  );
}

/**
 * A file only its owner can read, created here: one that exists already is never overwritten. It
 * is written whole under a name of its own and then linked into place, so that a reader (an
 * operator's script, the start command) never finds it empty or half written.
 */
function fileDestination(file: string): PasswordDestination {
  return {
    where: file,
    async save(_username, password) {
      await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
      if (await exists(file)) throw alreadyThere(file);
      const draft = `${file}.${randomBytes(6).toString('hex')}.tmp`;
      try {
        await writeWhole(draft, `${password}\n`);
        await link(draft, file);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw alreadyThere(file);
        throw new Error(`Cannot write the generated password to ${file}: ${(error as Error).message}`);
      } finally {
        await unlink(draft).catch(() => undefined);
      }
    },
  };
}

const alreadyThere = (file: string) =>
  new Error(
    `${file} already exists, though there are no users yet: it may hold an earlier installation's ` +
      'password. Remove it (or set ADMIN_PASSWORD) and start again',
  );

async function exists(file: string): Promise<boolean> {
  return stat(file).then(
    () => true,
    () => false,
  );
}

async function writeWhole(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

function secretDestination(name: string, kubernetes: () => KubernetesApi): PasswordDestination {
  let api: KubernetesApi | undefined;
  const connect = () => (api ??= kubernetes());
  return {
    get where() {
      return `the Secret ${api ? `${api.namespace}/` : ''}${name} (keys username and password)`;
    },
    async save(username, password) {
      try {
        await createSecret(
          connect(),
          name,
          { username, password },
          { 'app.kubernetes.io/part-of': 'classroom-monitor', 'app.kubernetes.io/component': 'auth' },
        );
      } catch (error) {
        // Within the first-administrator lock and with no users, a Secret that exists is left
        // from an earlier installation: its password is not the one about to be stored.
        if (error instanceof SecretExistsError) {
          throw new Error(
            `${error.message}, though there are no users yet: it may hold an earlier installation's ` +
              'password. Delete it (or set ADMIN_PASSWORD) and start again',
          );
        }
        throw error;
      }
    },
  };
}
