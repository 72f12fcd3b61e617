import * as dgram from 'node:dgram';
import * as snmp from 'net-snmp';
import { reportForWrongDigest } from './snmp-wrong-digest';

export type SnmpSecurityLevelName = Exclude<keyof typeof snmp.SecurityLevel, number>;
export type SnmpAuthProtocolName = Exclude<keyof typeof snmp.AuthProtocols, 'none' | number>;
export type SnmpPrivProtocolName = Exclude<keyof typeof snmp.PrivProtocols, 'none' | number>;

export interface SnmpSimulatorUser {
  name: string;
  level: SnmpSecurityLevelName;
  authProtocol?: SnmpAuthProtocolName;
  authKey?: string;
  privProtocol?: SnmpPrivProtocolName;
  privKey?: string;
}

/** One row of the ifTable; rows are numbered 1, 2, … in the order given. */
export interface SnmpSimulatorInterface {
  name: string;
  /** ifAdminStatus; default up. */
  admin?: 'up' | 'down';
  /** ifOperStatus; default up. */
  oper?: 'up' | 'down';
}

export interface SnmpSimulatorOptions {
  /** A loopback address such as 127.0.0.20. */
  host: string;
  /** 0 or absent: a free port, as the answer's `port` tells. */
  port?: number;
  /** The v2c community it answers; default `public`. */
  community?: string;
  v3Users?: SnmpSimulatorUser[];
  sysDescr: string;
  sysName: string;
  /** sysUpTime at start, as if the device booted that long ago; default 0. */
  uptimeSeconds?: number;
  interfaces?: SnmpSimulatorInterface[];
  /** Further scalars (OIDs ending in .0): a number is an Integer, a string an OctetString; writable. */
  extraOids?: Record<string, number | string>;
}

export interface SnmpSimulator {
  host: string;
  port: number;
  /** Restarts sysUpTime from 0, as a power cycle would. */
  reboot(): void;
  /** Changes a scalar (sysDescr, sysName, an extra OID) or an ifTable cell such as ifOperStatus.3. */
  set(oid: string, value: number | string): void;
  setInterface(index: number, state: Pick<SnmpSimulatorInterface, 'admin' | 'oper'>): void;
  /** How many requests with a wrong v3 authentication key it answered with a report. */
  wrongDigests(): number;
  close(): Promise<void>;
}

const SYS_DESCR = '1.3.6.1.2.1.1.1';
const SYS_UP_TIME = '1.3.6.1.2.1.1.3';
const SYS_NAME = '1.3.6.1.2.1.1.5';
const IF_ENTRY = '1.3.6.1.2.1.2.2.1';
const IF_TABLE = 'ifTable';
const IF_COLUMNS = { index: 1, descr: 2, admin: 7, oper: 8 } as const;
const STATUS = { up: 1, down: 2 } as const;

/** The part of net-snmp's (untyped) Mib the simulator uses. */
interface Mib {
  registerProvider(provider: object): void;
  setScalarValue(name: string, value: number | string): void;
  addTableRow(name: string, row: (number | string)[]): void;
  setTableSingleCell(name: string, column: number, rowIndex: number[], value: number | string): void;
}

interface Agent {
  getAuthorizer(): { addCommunity(community: string): void; addUser(user: snmp.User): void };
  close(callback?: () => void): void;
}

interface SimulatedMib {
  mib: Mib;
  /** Instance OID (ending .0) → provider name and whether it holds a number. */
  scalars: Map<string, { name: string; numeric: boolean }>;
  interfaceCount: number;
}

/** The system group, the ifTable when there are interfaces, and the extra scalars. */
function buildMib(options: SnmpSimulatorOptions, uptimeTicks: () => number): SimulatedMib {
  const mib = snmp.createMib() as Mib;
  const scalars: SimulatedMib['scalars'] = new Map();
  const addScalar = (oid: string, value: number | string) => {
    if (typeof value === 'number' && !Number.isInteger(value)) {
      throw new RangeError(`SNMP simulator: ${oid}.0 must be a whole number or a string`);
    }
    const name = `scalar-${oid}`;
    const numeric = typeof value === 'number';
    mib.registerProvider({
      name,
      type: snmp.MibProviderType.Scalar,
      oid,
      scalarType: numeric ? snmp.ObjectType.Integer : snmp.ObjectType.OctetString,
      maxAccess: snmp.MaxAccess['read-write'],
    });
    mib.setScalarValue(name, value);
    scalars.set(`${oid}.0`, { name, numeric });
  };
  addScalar(SYS_DESCR, options.sysDescr);
  addScalar(SYS_NAME, options.sysName);
  mib.registerProvider({
    name: 'sysUpTime',
    type: snmp.MibProviderType.Scalar,
    oid: SYS_UP_TIME,
    scalarType: snmp.ObjectType.TimeTicks,
    maxAccess: snmp.MaxAccess['read-only'],
    // Computed when asked, so a simulator costs no timer however many run.
    handler: (request: { instanceNode: { value: number }; done(): void }) => {
      request.instanceNode.value = uptimeTicks();
      request.done();
    },
  });
  mib.setScalarValue('sysUpTime', 0);
  for (const [oid, value] of Object.entries(options.extraOids ?? {})) {
    const dotted = oid.replace(/^\./, '');
    if (!/^[0-2](\.\d+)+\.0$/.test(dotted)) {
      throw new RangeError(`SNMP simulator: extra OID ${oid} must be a scalar instance ending in .0`);
    }
    addScalar(dotted.slice(0, -2), value);
  }
  const interfaces = options.interfaces ?? [];
  if (interfaces.length > 0) addInterfaces(mib, interfaces);
  return { mib, scalars, interfaceCount: interfaces.length };
}

function addInterfaces(mib: Mib, interfaces: SnmpSimulatorInterface[]): void {
  const column = (number: number, name: string, type: snmp.ObjectType) => ({
    number,
    name,
    type,
    maxAccess: snmp.MaxAccess['read-only'],
  });
  mib.registerProvider({
    name: IF_TABLE,
    type: snmp.MibProviderType.Table,
    oid: IF_ENTRY,
    maxAccess: snmp.MaxAccess['not-accessible'],
    tableColumns: [
      column(IF_COLUMNS.index, 'ifIndex', snmp.ObjectType.Integer),
      column(IF_COLUMNS.descr, 'ifDescr', snmp.ObjectType.OctetString),
      column(IF_COLUMNS.admin, 'ifAdminStatus', snmp.ObjectType.Integer),
      column(IF_COLUMNS.oper, 'ifOperStatus', snmp.ObjectType.Integer),
    ],
    tableIndex: [{ columnName: 'ifIndex' }],
  });
  interfaces.forEach((i, n) =>
    mib.addTableRow(IF_TABLE, [n + 1, i.name, STATUS[i.admin ?? 'up'], STATUS[i.oper ?? 'up']]),
  );
}

function setValue({ mib, scalars, interfaceCount }: SimulatedMib, oid: string, value: number | string): void {
  const dotted = oid.replace(/^\./, '');
  const scalar = scalars.get(dotted);
  if (scalar) {
    if (scalar.numeric && (typeof value !== 'number' || !Number.isInteger(value))) {
      throw new RangeError(`SNMP simulator: ${dotted} holds whole numbers`);
    }
    mib.setScalarValue(scalar.name, scalar.numeric ? value : String(value));
    return;
  }
  const [column, index, ...extra] = dotted.startsWith(`${IF_ENTRY}.`)
    ? dotted
        .slice(IF_ENTRY.length + 1)
        .split('.')
        .map(Number)
    : [];
  const writable: number[] = [IF_COLUMNS.descr, IF_COLUMNS.admin, IF_COLUMNS.oper];
  if (!writable.includes(column) || !(index >= 1 && index <= interfaceCount) || extra.length > 0) {
    throw new RangeError(`SNMP simulator: ${dotted} is not a value it holds`);
  }
  mib.setTableSingleCell(IF_TABLE, column, [index], column === IF_COLUMNS.descr ? String(value) : value);
}

/**
 * A UDP socket module for the agent that binds where we say (net-snmp turns port 0 into 161)
 * and answers wrong v3 keys with a report, as a real agent does.
 */
function socketModule(port: number, users: snmp.User[], onWrongDigest: () => number) {
  const sockets: dgram.Socket[] = [];
  const module = {
    createSocket(type: dgram.SocketType): dgram.Socket {
      const socket = dgram.createSocket(type);
      const bind = socket.bind.bind(socket) as (port: number, address?: string) => dgram.Socket;
      socket.bind = ((_ignored: number, address?: string) => bind(port, address)) as typeof socket.bind;
      socket.on('message', (message, remote) => {
        const report = reportForWrongDigest(message, users, onWrongDigest);
        if (report) socket.send(report, remote.port, remote.address);
      });
      sockets.push(socket);
      return socket;
    },
  };
  return { module, sockets };
}

function toUser(user: SnmpSimulatorUser): snmp.User {
  return {
    name: user.name,
    level: snmp.SecurityLevel[user.level],
    authProtocol: user.authProtocol ? snmp.AuthProtocols[user.authProtocol] : undefined,
    authKey: user.authKey,
    privProtocol: user.privProtocol ? snmp.PrivProtocols[user.privProtocol] : undefined,
    privKey: user.privKey,
  };
}

function listening(socket: dgram.Socket): Promise<number> {
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('listening', () => {
      socket.off('error', reject);
      resolve(socket.address().port);
    });
  });
}

/** An SNMP v2c/v3 agent on a loopback address: the system group, interfaces and chosen values. */
export async function startSnmpSimulator(options: SnmpSimulatorOptions): Promise<SnmpSimulator> {
  let bootedAt = performance.now() - (options.uptimeSeconds ?? 0) * 1000;
  let wrongDigests = 0;
  // TimeTicks are hundredths of a second in 32 bits: they wrap after 497 days, as on a device.
  const uptimeTicks = () => Math.floor((performance.now() - bootedAt) / 10) % 2 ** 32;
  const simulated = buildMib(options, uptimeTicks);
  const users = (options.v3Users ?? []).map(toUser);
  const { module, sockets } = socketModule(options.port ?? 0, users, () => ++wrongDigests);
  const agent = snmp.createAgent(
    { address: options.host, dgramModule: module },
    // Refused communities and unknown users are what a simulator is for: nothing to report.
    () => undefined,
    simulated.mib,
  ) as Agent;
  agent.getAuthorizer().addCommunity(options.community ?? 'public');
  for (const user of users) agent.getAuthorizer().addUser(user);
  let port: number;
  try {
    port = await listening(sockets[0]);
  } catch (error) {
    agent.close();
    throw error;
  }

  const set = (oid: string, value: number | string) => setValue(simulated, oid, value);
  return {
    host: options.host,
    port,
    reboot: () => {
      bootedAt = performance.now();
    },
    set,
    setInterface: (index, state) => {
      if (state.admin) set(`${IF_ENTRY}.${IF_COLUMNS.admin}.${index}`, STATUS[state.admin]);
      if (state.oper) set(`${IF_ENTRY}.${IF_COLUMNS.oper}.${index}`, STATUS[state.oper]);
    },
    wrongDigests: () => wrongDigests,
    close: () => new Promise<void>((resolve) => agent.close(() => resolve())),
  };
}
