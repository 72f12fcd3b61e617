import { readFileSync } from 'node:fs';
import { request } from 'node:https';
import path from 'node:path';

/** Where the kubelet mounts a pod's service-account token, its cluster's CA and its namespace. */
export const SERVICE_ACCOUNT_DIR = '/var/run/secrets/kubernetes.io/serviceaccount';

export interface KubernetesApi {
  /** https://kubernetes.default.svc in a pod. */
  url: string;
  token: string;
  /** The cluster's CA certificate (PEM): the API server's certificate is checked against it only. */
  ca: string;
  namespace: string;
  timeoutMs: number;
}

/** The API server as the pod's own service account sees it. */
export function inClusterApi(
  options: { url?: string; serviceAccountDir?: string; timeoutMs?: number } = {},
): KubernetesApi {
  const dir = options.serviceAccountDir ?? SERVICE_ACCOUNT_DIR;
  const read = (file: string) => {
    try {
      return readFileSync(path.join(dir, file), 'utf8');
    } catch (error) {
      throw new Error(
        `Cannot read the service-account ${file} in ${dir} (${(error as Error).message}): ` +
          'the pod needs automountServiceAccountToken: true to write a Secret',
      );
    }
  };
  return {
    url: options.url ?? 'https://kubernetes.default.svc',
    token: read('token').trim(),
    ca: read('ca.crt'),
    namespace: read('namespace').trim(),
    timeoutMs: options.timeoutMs ?? 10_000,
  };
}

/** The Secret exists already: created by an earlier start, or by hand. */
export class SecretExistsError extends Error {}

/**
 * Creates a Secret and never replaces one: `create` is all the chart's Role grants for it, and a
 * Secret that exists may hold the password of an administrator someone already uses.
 */
export async function createSecret(
  api: KubernetesApi,
  name: string,
  stringData: Record<string, string>,
  labels: Record<string, string> = {},
): Promise<void> {
  const where = `Secret ${api.namespace}/${name}`;
  const body = JSON.stringify({
    apiVersion: 'v1',
    kind: 'Secret',
    metadata: { name, namespace: api.namespace, labels },
    type: 'Opaque',
    // Read, not edited: a changed password lives in the database, not here.
    immutable: true,
    stringData,
  });
  let answer: { status: number; body: string };
  try {
    answer = await post(api, `/api/v1/namespaces/${encodeURIComponent(api.namespace)}/secrets`, body);
  } catch (error) {
    throw new Error(
      `Could not create ${where}: the Kubernetes API at ${api.url} did not answer (${describe(error, api)})`,
    );
  }
  if (answer.status === 201) return;
  const reason = statusMessage(answer.body) ?? `HTTP ${answer.status}`;
  if (answer.status === 409) throw new SecretExistsError(`${where} already exists (${reason})`);
  if (answer.status === 401 || answer.status === 403) {
    throw new Error(
      `Could not create ${where}: the pod's service account may not (${answer.status}: ${reason}); ` +
        "the chart's Role for auth grants `create` on secrets",
    );
  }
  throw new Error(`Could not create ${where}: the Kubernetes API answered ${answer.status}: ${reason}`);
}

function post(api: KubernetesApi, pathname: string, body: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      new URL(pathname, api.url),
      {
        method: 'POST',
        ca: api.ca,
        headers: {
          authorization: `Bearer ${api.token}`,
          'content-type': 'application/json',
          accept: 'application/json',
          'content-length': Buffer.byteLength(body),
        },
        signal: AbortSignal.timeout(api.timeoutMs),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** The `message` of a Kubernetes Status object, the API's error body. */
function statusMessage(body: string): string | undefined {
  try {
    const status = JSON.parse(body) as { message?: unknown };
    return typeof status.message === 'string' ? status.message : undefined;
  } catch {
    return body.trim().slice(0, 200) || undefined;
  }
}

function describe(error: unknown, api: KubernetesApi): string {
  const { name, code, message } = error as { name?: string; code?: string; message?: string };
  // The timeout's signal aborts the request: Node reports an AbortError.
  if (name === 'AbortError') return `no answer within ${api.timeoutMs} ms`;
  return [code, message ?? String(error)].filter(Boolean).join(' ');
}
