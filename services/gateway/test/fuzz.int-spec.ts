import { Agent, request } from 'node:http';
import {
  type ApiRouteDef,
  apiRoutes,
  type Building,
  type Equipment,
  ErrorCode,
  healthAnswerSchema,
  type Room,
  type User,
} from '@cm/contracts';
import { routeErrorCodes } from '../src/docs/route-errors';
import { type FuzzCase, type FuzzRequest, fieldCases, generateCase, seededRandom } from './fuzz-cases';
import { checkReply, fetch, startAuthAndGateway } from './support';

/**
 * Malformed input to every route of the registry, as an administrator, a plain user and nobody,
 * against every service: no answer may be a 5xx, a 408 (each body is sent whole: the server
 * waited for bytes it had), never come, or be a 4xx without a message a person can act on. FUZZ_SEED replays a run, FUZZ_CASES sets its size
 * (`npm run bench -- fuzz` runs a larger one).
 */
const seed = Number(process.env.FUZZ_SEED ?? 20_261_124);
const caseCount = Number(process.env.FUZZ_CASES ?? 2000);
/** FUZZ_ONLY=12,345 replays those cases of the run alone. */
const only = process.env.FUZZ_ONLY?.split(',').map(Number);
const concurrency = 4;
/**
 * A hang, not a speed target: longer than any deadline the gateway puts on its own calls (an
 * upload part's PUT, 60 s, is the longest), so an answer later than this means a call without one.
 * An upload's several round trips (media, the store, the database) take a loaded machine seconds.
 */
const answerWithinMs = 90_000;
/**
 * Room for the machine's load: a service call that runs out of time is answered 503, which says
 * nothing about how the gateway handles the input. The same room for the system status's wait
 * for each service (2 s by default).
 */
const serviceCallTimeoutMs = '30000';

/**
 * The probes answer 503 with their report while something is down (a check that a loaded machine
 * did not answer within its two seconds, say): that is what they are for, whatever the input.
 */
const statusProbes: string[] = [apiRoutes.readyz.path, apiRoutes.systemStatus.path];
/**
 * Check Now answers 504 when the sweep outlasts its wait (15 s here): on a loaded machine that is
 * the documented answer, and says nothing of how the input was handled.
 */
const isTimeReport = (route: ApiRouteDef, answer: Answer) => {
  const parsed = parseJson(answer.text);
  if (answer.status === 503 && statusProbes.includes(route.path))
    return healthAnswerSchema.safeParse(parsed).success;
  if (answer.status === 504 && route.path === apiRoutes.checkMonitoring.path)
    return (parsed as { code?: unknown } | undefined)?.code === ErrorCode.CHECK_INCOMPLETE;
  return false;
};

/** The codes the API document lists for a route, and the one for a path no route has. */
const documented = (route: ApiRouteDef) => new Set([...routeErrorCodes(route), ErrorCode.ROUTE_NOT_FOUND]);

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Objects are served outside /api and the registry, behind the same session check. */
const objectsRoute: ApiRouteDef = {
  method: 'GET',
  path: '/objects/uploads/:key',
  summary: 'An uploaded picture',
  tag: 'Media',
  access: 'user',
  errors: [ErrorCode.OBJECT_NOT_FOUND, ErrorCode.CONFLICT],
};

type Identity = 'admin' | 'user' | 'anonymous';

interface Answer {
  status: number;
  text: string;
  ms: number;
}

const agent = new Agent({ keepAlive: true, maxSockets: concurrency });

/** node:http rather than fetch: fetch would normalise the odd paths (`..`, `%2F`) and headers away. */
function send(base: string, req: FuzzRequest, cookie: string | undefined): Promise<Answer | string> {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    const outgoing = request(
      {
        agent,
        host: hostname,
        port,
        method: req.method,
        path: req.path,
        headers: {
          ...(cookie ? { cookie } : {}),
          ...req.headers,
          ...(req.body ? { 'content-length': String(req.body.length) } : {}),
        },
        timeout: answerWithinMs,
      },
      (res) => {
        // The live stream's answer is its headers: its body goes on until the client leaves.
        if (res.headers['content-type']?.startsWith('text/event-stream')) {
          outgoing.destroy();
          return resolve({ status: res.statusCode ?? 0, text: '', ms: performance.now() - started });
        }
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode ?? 0,
            text: Buffer.concat(chunks).toString('utf8'),
            ms: performance.now() - started,
          }),
        );
        res.on('error', (error) => resolve(`the answer broke off: ${error.message}`));
      },
    );
    outgoing.on('timeout', () => {
      outgoing.destroy();
      resolve(`no answer within ${answerWithinMs} ms`);
    });
    outgoing.on('error', (error) => resolve(`the request failed: ${error.message}`));
    outgoing.end(req.body);
  });
}

/** Why an answer fails the test, or null when it is fine. */
function judge(c: FuzzCase, route: ApiRouteDef, answer: Answer | string, base: string): string | null {
  if (typeof answer === 'string') return answer;
  if (isTimeReport(route, answer)) return null;
  if (answer.status >= 500) return `answered ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status === 408) return `answered 408 to a body sent whole: ${answer.text.slice(0, 300)}`;
  if (answer.ms > answerWithinMs) return `answered after ${Math.round(answer.ms)} ms`;
  const ours = /^\/(api|objects)\//i.test(c.request.path);
  if (ours && answer.status >= 400) {
    const { code, message } = (parseJson(answer.text) ?? {}) as { code?: unknown; message?: unknown };
    if (typeof message !== 'string' || message.trim() === '')
      return `answered ${answer.status} without a message: ${answer.text.slice(0, 200)}`;
    // The API document lists every code a route answers: a client generated from it must know them.
    if (answer.status < 500 && !documented(route).has(code as ErrorCode))
      return `answered ${answer.status} ${String(code)}, which the API document does not list for this route`;
  }
  if (answer.status >= 200 && answer.status < 300) {
    try {
      checkReply(c.request.method, `${base}${c.request.path}`, answer.status, answer.text);
    } catch (error) {
      return (error as Error).message;
    }
  }
  return null;
}

describe('fuzzing every route', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  const cookies: Partial<Record<Identity, string>> = {};
  let fixtures: Parameters<typeof generateCase>[3];

  const call = async <T>(path: string, method: string, body: unknown, cookie: string) => {
    const res = await fetch(`${sut.base}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!res.ok) throw new Error(`${method} ${path} answered ${res.status}: ${await res.text()}`);
    return (await res.json()) as T;
  };

  beforeAll(async () => {
    // Sign-in cases must reach validation and auth, not stop at the per-address limit.
    sut = await startAuthAndGateway(
      {
        LOGIN_MAX_FAILURES_PER_IP: '100000',
        LOGIN_MAX_FAILURES: '1000',
        NATS_REQUEST_TIMEOUT_MS: serviceCallTimeoutMs,
        READINESS_TIMEOUT_MS: serviceCallTimeoutMs,
      },
      { everyService: true },
    );
    const admin = (await sut.signInAdmin()).cookie;
    cookies.admin = admin;
    const plain = { username: 'plain', password: 'plain password' };
    await call<User>('/api/users', 'POST', plain, admin);
    cookies.user = (await sut.signIn(plain.username, plain.password)).cookie;
    const victim = await call<User>(
      '/api/users',
      'POST',
      { username: 'fuzz-victim', password: 'pw victim phrase' },
      admin,
    );
    const building = await call<Building>('/api/buildings', 'POST', { name: 'Fuzz Hall' }, admin);
    const room = await call<Room>(
      `/api/buildings/${building.id}/rooms`,
      'POST',
      { name: 'F1', type: 'Classroom', floor: '1' },
      admin,
    );
    const equipment = await call<Equipment>(
      `/api/rooms/${room.id}/equipment`,
      'POST',
      { name: 'Projector' },
      admin,
    );
    const { uploadURL } = await call<{ uploadURL: string }>('/api/objects/upload', 'POST', {}, admin);
    const put = await globalThis.fetch(uploadURL, { method: 'PUT', body: new Uint8Array(0) });
    expect(put.status).toBe(200);
    fixtures = {
      buildingId: building.id,
      roomId: room.id,
      equipmentId: equipment.id,
      userId: victim.id,
      emptyUploadUrl: uploadURL,
    };
  });
  afterAll(async () => {
    agent.destroy();
    await sut?.close();
  });

  it(
    `answers every field's unstorable values and ${caseCount} malformed requests (seed ${seed}) with no 5xx, no hang and a message`,
    async () => {
      const routes = [
        ...Object.entries(apiRoutes as Record<string, ApiRouteDef>),
        ['serveObject', objectsRoute] as const,
      ];
      const fieldPlan = routes.flatMap(([name, route]) =>
        fieldCases(name, route, fixtures).map((c) => ({ name, route, c, identity: 'admin' as Identity })),
      );
      const indexes = only ?? Array.from({ length: fieldPlan.length + caseCount }, (_, i) => i);
      const total = indexes.length;
      /** Case i: each field's values first, then the random ones, each from a generator of its own. */
      const caseAt = (index: number) => {
        if (index < fieldPlan.length) return fieldPlan[index];
        const [name, route] = routes[index % routes.length];
        const random = seededRandom(seed + Math.imul(index, 0x9e3779b9));
        // Mostly an administrator, who gets past every access check to the input itself.
        const identity: Identity = random.pick(['admin', 'admin', 'admin', 'admin', 'user', 'anonymous']);
        return { name, route, identity, c: generateCase(name, route, random, fixtures) };
      };
      const failures: string[] = [];
      const statuses = new Map<number, number>();
      let slowest = { ms: 0, what: '' };
      let next = 0;

      const worker = async () => {
        while (next < total) {
          const index = indexes[next++];
          const { name, route, identity, c } = caseAt(index);
          // Signing out would end the session the other cases use.
          const cookie = route.path === apiRoutes.logout.path ? undefined : cookies[identity];
          const answer = await send(sut.base, c.request, cookie);
          if (typeof answer !== 'string') {
            statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
            if (answer.ms > slowest.ms) slowest = { ms: answer.ms, what: `${name} ${c.kind} (${c.detail})` };
          }
          const why = judge(c, route, answer, sut.base);
          if (!why) continue;
          const line =
            `#${index} ${name} as ${identity}, ${c.kind} (${c.detail}): ` +
            `${c.request.method} ${c.request.path.slice(0, 120)} ${why}`;
          failures.push(line);
        }
      };
      await Promise.all(Array.from({ length: concurrency }, worker));

      const summary = [...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ');
      process.stdout.write(
        `Fuzz seed ${seed}: ${fieldPlan.length} field cases and ${caseCount} random ones; ` +
          `answers ${summary}; slowest ${Math.round(slowest.ms)} ms, ${slowest.what}\n`,
      );
      if (failures.length) {
        throw new Error(
          `${failures.length} of ${total} cases failed; replay with FUZZ_SEED=${seed} FUZZ_CASES=${caseCount}, or FUZZ_ONLY=<#> for single cases` +
            ` (answers: ${summary})\n${failures.slice(0, 60).join('\n')}`,
        );
      }
      // Most cases must get past access checks to their input, or the run proves little.
      const refusedForAccess = (statuses.get(401) ?? 0) + (statuses.get(403) ?? 0);
      if (!only) expect(refusedForAccess).toBeLessThan(total / 2);
      // Only stops a stuck run (answerWithinMs bounds each answer): on a quiet machine the cases
      // take under a minute, on one loaded with other work and a CPU hog nine.
    },
    300_000 + caseCount * 250,
  );
});
