import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { resolve } from 'node:path';

const ROUTER = 'cm-lab';
const ensureRouter = resolve(__dirname, '../../../../scripts/ensure-test-network.sh');

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe', encoding: 'utf8' });

/**
 * A network namespace of test hosts behind the lab's router (scripts/ensure-test-network.sh), so
 * tests have hosts that answer and addresses that stay silent, all inside this machine:
 * - `answering`: addresses of the far end (198.18.N.2–5);
 * - `unowned`: on the far link but nobody's (198.18.N.6–9): no ARP answer, no reply;
 * - `routed`: 198.19.N.0/24, routed to the far end, which owns none of it and does not forward.
 *
 * Every link and address a lab makes lives in the router's namespace or its own, never in this
 * one: a change here would make a browser on this machine drop the requests it has under way.
 */
export class NetnsLab {
  readonly answering: string[];
  readonly unowned: string[];
  readonly routedPrefix: string;

  private constructor(
    private readonly ns: string,
    private readonly farEnd: string,
    readonly subnet: number,
  ) {
    this.answering = [2, 3, 4, 5].map((d) => `198.18.${subnet}.${d}`);
    this.unowned = [6, 7, 8, 9].map((d) => `198.18.${subnet}.${d}`);
    this.routedPrefix = `198.19.${subnet}`;
  }

  /** The range `198.18.N.4-7`: two answering addresses, then two silent ones. */
  get straddlingRange(): string {
    return `198.18.${this.subnet}.4-7`;
  }

  static create(): NetnsLab {
    execFileSync('bash', [ensureRouter], { stdio: 'pipe' });
    const tag = randomBytes(3).toString('hex');
    const subnet = freeSubnet();
    const farEnd = `cmp${tag}`;
    const lab = new NetnsLab(`cmt-${tag}`, farEnd, subnet);
    const routerEnd = `cmr${tag}`;
    ip('netns', 'add', lab.ns);
    try {
      ip('-n', ROUTER, 'link', 'add', routerEnd, 'type', 'veth', 'peer', 'name', farEnd, 'netns', lab.ns);
      ip('-n', ROUTER, 'addr', 'add', `198.18.${subnet}.1/24`, 'dev', routerEnd);
      ip('-n', ROUTER, 'link', 'set', routerEnd, 'up');
      for (const address of lab.answering) ip('-n', lab.ns, 'addr', 'add', `${address}/24`, 'dev', farEnd);
      ip('-n', lab.ns, 'link', 'set', farEnd, 'up');
      ip('-n', lab.ns, 'link', 'set', 'lo', 'up');
      ip('-n', lab.ns, 'route', 'add', 'default', 'via', `198.18.${subnet}.1`);
      ip(
        '-n',
        ROUTER,
        'route',
        'add',
        `${lab.routedPrefix}.0/24`,
        'via',
        `198.18.${subnet}.2`,
        'dev',
        routerEnd,
      );
    } catch (error) {
      lab.destroy();
      throw error;
    }
    return lab;
  }

  /**
   * A device that goes down: one of `answering` (not the first, whose removal would take the
   * others with it) is taken off the far end, which answers it no more.
   */
  silence(address: string): void {
    if (address === this.answering[0] || !this.answering.includes(address))
      throw new Error(`${address} is not an address the lab can silence`);
    ip('-n', this.ns, 'addr', 'del', `${address}/24`, 'dev', this.farEnd);
  }

  /** Deleting the namespace deletes the veth pair, its addresses and the router's route with it. */
  destroy(): void {
    try {
      ip('netns', 'del', this.ns);
    } catch {
      // Already gone.
    }
  }
}

/** A third octet no other lab on the router uses (198.18.0.0/24 is the router's own uplink). */
function freeSubnet(): number {
  const taken = new Set(
    [...ip('-n', ROUTER, '-4', '-o', 'addr', 'show').matchAll(/inet 198\.18\.(\d+)\./g)].map((m) =>
      Number(m[1]),
    ),
  );
  for (;;) {
    const subnet = randomInt(1, 255);
    if (!taken.has(subnet)) return subnet;
  }
}
