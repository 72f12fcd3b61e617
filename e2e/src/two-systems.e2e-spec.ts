import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import readline from 'node:readline';

interface PlannedPort {
  variable: string;
  port: number;
  host: string;
  chosen: boolean;
}
type Plan = Record<string, PlannedPort>;

// The launcher `npm start` uses: how it places every process's probe and metrics port.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const launcher = require('../../scripts/stack.cjs') as {
  planPorts(o: {
    env: Record<string, string | undefined>;
    serviceEnv?: Record<string, Record<string, string>>;
    usual?: Record<string, number>;
  }): Promise<Plan>;
  releasePorts(plan: Plan): void;
  startStack(o: object): Promise<unknown>;
  SERVICES: string[];
};

const listen = (port: number, host = '127.0.0.1') =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host, exclusive: true }, () => resolve(server));
  });
const close = (servers: Server[]) =>
  Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve))));
const portsOf = (plan: Plan) => launcher.SERVICES.map((service) => plan[service].port);

/** Binds every port of a plan at once, as the system's five processes do. */
async function occupy(plan: Plan): Promise<Server[]> {
  const servers: Server[] = [];
  try {
    for (const { port, host } of Object.values(plan)) servers.push(await listen(port, host));
  } catch (error) {
    await close(servers);
    throw error;
  }
  return servers;
}

describe('two systems on one machine (npm start twice, each with its own PORT and CM_NAMESPACE)', () => {
  const running: Server[] = [];
  const plans: Plan[] = [];
  /** A plan made as a launcher makes it: its ports stay claimed until the test ends (the system stops). */
  const planPorts = async (options: Parameters<typeof launcher.planPorts>[0]) => {
    const plan = await launcher.planPorts(options);
    plans.push(plan);
    return plan;
  };
  afterEach(async () => {
    await close(running.splice(0));
    for (const plan of plans.splice(0)) launcher.releasePorts(plan);
  });

  it('gives the second system probe and metrics ports apart from the first one’s, all of them bindable', async () => {
    const first = await planPorts({ env: { CM_NAMESPACE: 'one' } });
    // The first system runs: its processes listen on every port of its plan.
    running.push(...(await occupy(first)));

    const second = await planPorts({ env: { CM_NAMESPACE: 'two' } });
    const firstPorts = portsOf(first);
    const secondPorts = portsOf(second);
    expect(new Set(secondPorts).size).toBe(secondPorts.length);
    expect(secondPorts.filter((port) => firstPorts.includes(port))).toEqual([]);
    running.push(...(await occupy(second)));
    expect(Object.values(second).map((p) => p.variable)).toEqual(Object.values(first).map((p) => p.variable));
  });

  it('gives two systems started at the same moment different ports, though neither listens yet', async () => {
    // Free ports stand in for 9100–9104, which something else on this machine may hold.
    const probes = await Promise.all(launcher.SERVICES.map(() => listen(0)));
    const usual = Object.fromEntries(
      launcher.SERVICES.map((service, i) => [service, (probes[i].address() as { port: number }).port]),
    );
    await close(probes);
    // The second plans before the first's processes bind anything: the ports it found free are claimed.
    const first = await planPorts({ env: { CM_NAMESPACE: 'one' }, usual });
    const second = await planPorts({ env: { CM_NAMESPACE: 'two' }, usual });
    expect(portsOf(first)).toEqual(launcher.SERVICES.map((service) => usual[service]));
    expect(portsOf(second).filter((port) => portsOf(first).includes(port))).toEqual([]);
    // Each system's processes can then all listen.
    running.push(...(await occupy(first)), ...(await occupy(second)));
    // Given up when the first stops: the next system gets the usual ports again.
    launcher.releasePorts(first);
    await close(running.splice(0));
    expect(portsOf(await planPorts({ env: {}, usual }))).toEqual(portsOf(first));
  });

  it('gives two launchers started at the same moment, each a process of its own, different ports', async () => {
    const probes = await Promise.all(launcher.SERVICES.map(() => listen(0)));
    const usual = Object.fromEntries(
      launcher.SERVICES.map((service, i) => [service, (probes[i].address() as { port: number }).port]),
    );
    await close(probes);
    // Each plans, prints its ports and keeps its claims until its input closes (its system stops).
    const script = `
      const { planPorts, releasePorts } = require(${JSON.stringify(path.resolve(__dirname, '../../scripts/stack.cjs'))});
      planPorts({ env: {}, usual: ${JSON.stringify(usual)} }).then((plan) => {
        console.log(JSON.stringify(Object.values(plan).map((p) => p.port)));
        process.stdin.on('end', () => releasePorts(plan)).resume();
      });`;
    const launchers = [0, 1].map(() =>
      spawn(process.execPath, ['-e', script], { stdio: ['pipe', 'pipe', 'inherit'] }),
    );
    try {
      const [a, b] = await Promise.all(
        launchers.map(
          (child) =>
            new Promise<number[]>((resolve, reject) => {
              child.once('exit', (code) => reject(new Error(`The launcher exited with ${code}`)));
              readline
                .createInterface({ input: child.stdout! })
                .once('line', (line) => resolve(JSON.parse(line) as number[]));
            }),
        ),
      );
      expect(a.filter((port) => b.includes(port))).toEqual([]);
    } finally {
      for (const child of launchers) child.stdin!.end();
      await Promise.all(launchers.map((child) => new Promise((resolve) => child.once('exit', resolve))));
    }
  });

  it('keeps the usual port of each process while it is free', async () => {
    // Free ports stand in for 9100–9104, which something else on this machine may hold.
    const probes = await Promise.all(launcher.SERVICES.map(() => listen(0)));
    const usual = Object.fromEntries(
      launcher.SERVICES.map((service, i) => [service, (probes[i].address() as { port: number }).port]),
    );
    await close(probes);
    const plan = await planPorts({ env: {}, usual });
    expect(Object.fromEntries(Object.entries(plan).map(([s, p]) => [s, p.port]))).toEqual(usual);
    expect(plan.gateway.variable).toBe('METRICS_PORT');
    expect(plan.auth.variable).toBe('HTTP_PORT');
    launcher.releasePorts(plan); // that system stopped

    // One taken: that process alone moves to a free port.
    running.push(await listen(usual.media));
    const moved = await planPorts({ env: {}, usual });
    expect(moved.media.port).not.toBe(usual.media);
    expect(moved.auth.port).toBe(usual.auth);
    // Not to a port from the range outgoing connections take theirs from: one of them could take it
    // in the seconds before media binds it.
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')
      .trim()
      .split(/\s+/)
      .map(Number);
    expect(moved.media.port < low || moved.media.port > high).toBe(true);
  });

  it('keeps a port given in the environment, and refuses a taken one by name before starting anything', async () => {
    const taken = await listen(0);
    running.push(taken);
    const port = (taken.address() as { port: number }).port;
    await expect(
      planPorts({ env: {}, serviceEnv: { inventory: { HTTP_PORT: String(port) } } }),
    ).rejects.toThrow(
      `HTTP_PORT=${port} of inventory is taken on 127.0.0.1 (another system on this machine?)`,
    );

    const free = await listen(0);
    const freePort = (free.address() as { port: number }).port;
    await close([free]);
    const plan = await planPorts({ env: { METRICS_PORT: String(freePort) } });
    expect(plan.gateway).toMatchObject({ port: freePort, chosen: false });
    expect((await planPorts({ env: { HTTP_PORT: '0' } })).auth.port).toBe(0);
  });

  it('says at once that the public PORT is taken', async () => {
    const taken = await listen(0);
    running.push(taken);
    const port = (taken.address() as { port: number }).port;
    await expect(launcher.startStack({ port, env: { CM_NAMESPACE: 'two' }, services: [] })).rejects.toThrow(
      `Port ${port} is taken (another system on this machine?): choose another PORT`,
    );
  });
});
