import { execFileSync } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';

const run = (...args: string[]) => execFileSync('ip', args, { stdio: 'pipe' });

/**
 * A network namespace joined to this one by a veth pair, so tests have hosts that answer and
 * addresses that stay silent, all inside this machine:
 * - `answering`: addresses of the far end (198.18.N.2–5);
 * - `unowned`: on the link but nobody's (198.18.N.6–9): no ARP answer, no reply;
 * - `routed`: 198.19.N.0/24, routed to the far end, which owns none of it and does not forward.
 */
export class NetnsLab {
  readonly answering: string[];
  readonly unowned: string[];
  readonly routedPrefix: string;

  private constructor(
    private readonly ns: string,
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
    const tag = randomBytes(3).toString('hex');
    const subnet = randomInt(1, 255);
    const lab = new NetnsLab(`cmt-${tag}`, subnet);
    const host = `cmh${tag}`;
    const peer = `cmp${tag}`;
    const inNs = (...args: string[]) => run('netns', 'exec', lab.ns, 'ip', ...args);
    run('netns', 'add', lab.ns);
    try {
      run('link', 'add', host, 'type', 'veth', 'peer', 'name', peer);
      run('link', 'set', peer, 'netns', lab.ns);
      run('addr', 'add', `198.18.${subnet}.1/24`, 'dev', host);
      run('link', 'set', host, 'up');
      for (const address of lab.answering) inNs('addr', 'add', `${address}/24`, 'dev', peer);
      inNs('link', 'set', peer, 'up');
      inNs('link', 'set', 'lo', 'up');
      run('route', 'add', `${lab.routedPrefix}.0/24`, 'via', `198.18.${subnet}.2`, 'dev', host);
    } catch (error) {
      lab.destroy();
      throw error;
    }
    return lab;
  }

  /** Deleting the namespace deletes the veth pair, its addresses and the route with it. */
  destroy(): void {
    try {
      run('netns', 'del', this.ns);
    } catch {
      // Already gone.
    }
  }
}
