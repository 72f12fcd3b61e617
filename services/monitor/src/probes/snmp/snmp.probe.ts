import type { ProbeFinding, SnmpOidCheck } from '@cm/contracts';
import type * as snmp from 'net-snmp';
import type { DeviceProbe, ProbeResult } from '../probe';
import {
  column,
  failure,
  get,
  missingCredential,
  openSession,
  silence,
  type SnmpRequest,
} from './snmp-session';
import { clamp, judgeValue, parseSysDescr, type SnmpValue, storedValue, varbindValue } from './snmp-values';

const SYS_DESCR = '1.3.6.1.2.1.1.1.0';
const SYS_UP_TIME = '1.3.6.1.2.1.1.3.0';
const SYS_NAME = '1.3.6.1.2.1.1.5.0';
const IF_DESCR = '1.3.6.1.2.1.2.2.1.2';
const IF_ADMIN_STATUS = '1.3.6.1.2.1.2.2.1.7';
const IF_OPER_STATUS = '1.3.6.1.2.1.2.2.1.8';
const IF_UP = 1;
const IF_DOWN = 2;
const IF_LOWER_LAYER_DOWN = 7;
/** An AV device or a room switch has fewer; a core switch is not what this probe watches. */
const MAX_INTERFACES = 64;
/** Interfaces down whose admin status is asked, in one request. */
const MAX_DOWN_CHECKED = 32;
/** Past this many, the interfaces down are one finding that lists their numbers. */
const INTERFACE_FINDINGS = 5;

type Part = 'Interface status' | 'SNMP values';

/** What has been read so far: a deadline part-way still reports what the device said. */
interface Reading {
  system?: Pick<ProbeResult, 'deviceName' | 'model' | 'firmware' | 'uptimeSeconds' | 'detail'>;
  findings: ProbeFinding[];
  values: Record<string, SnmpValue>;
  pending: Set<Part>;
}

/**
 * SNMP v2c or v3: the system group (name, description, uptime), interfaces that are down although
 * enabled, and the administrator's own values against their thresholds.
 */
export class SnmpProbe implements DeviceProbe<'snmp'> {
  readonly type = 'snmp' as const;

  async probe(request: SnmpRequest): Promise<ProbeResult> {
    const missing = missingCredential(request);
    if (missing) return { outcome: 'auth-failed', findings: [], detail: missing };
    if (request.signal?.aborted) return stopped();
    const started = performance.now();
    let session: snmp.Session;
    try {
      session = openSession(request);
    } catch (error) {
      return failure(error, request.settings.version);
    }
    const reading: Reading = { findings: [], values: {}, pending: new Set() };
    try {
      const ended = await bounded(request, read(session, request, reading));
      if (ended === 'stopped') return stopped();
      if (ended !== 'deadline' && ended !== 'read') return ended;
      if (!reading.system) return silence(request.settings.version);
      return answered(reading, performance.now() - started, request.timeoutMs);
    } finally {
      closeQuietly(session);
    }
  }
}

/** Reads the parts in turn; a failure of the first is the probe's result, of a later one a finding. */
async function read(
  session: snmp.Session,
  request: SnmpRequest,
  reading: Reading,
): Promise<ProbeResult | 'read'> {
  try {
    reading.system = system(await get(session, [SYS_DESCR, SYS_UP_TIME, SYS_NAME]));
  } catch (error) {
    return failure(error, request.settings.version);
  }
  const checks = request.settings.oids;
  const parts: [Part, () => Promise<void>][] = [['Interface status', () => readInterfaces(session, reading)]];
  if (checks.length > 0) parts.push(['SNMP values', () => readValues(session, checks, reading)]);
  for (const [part] of parts) reading.pending.add(part);
  for (const [part, step] of parts) {
    try {
      await step();
    } catch (error) {
      const why = failure(error, request.settings.version).detail;
      reading.findings.push({ state: 'warning', reason: clamp(`${part} not read: ${why}`, 200) });
    }
    reading.pending.delete(part);
  }
  return 'read';
}

function system([descr, upTime, name]: snmp.Varbind[]): Reading['system'] {
  const sysDescr = varbindValue(descr);
  const sysName = varbindValue(name);
  const ticks = varbindValue(upTime);
  return {
    ...(typeof sysDescr === 'string' ? parseSysDescr(sysDescr) : {}),
    ...(sysName !== undefined && String(sysName) !== '' ? { deviceName: clamp(String(sysName), 200) } : {}),
    // TimeTicks are hundredths of a second.
    ...(typeof ticks === 'number' ? { uptimeSeconds: Math.floor(ticks / 100) } : {}),
    // The raw description, for the log and for models the parser does not split.
    ...(sysDescr !== undefined ? { detail: clamp(String(sysDescr), 300) } : {}),
  };
}

/** An interface down that is enabled is a cable out or a far end off; one disabled is intended. */
async function readInterfaces(session: snmp.Session, reading: Reading): Promise<void> {
  const oper = await column(session, IF_OPER_STATUS, MAX_INTERFACES);
  const allDown = [...oper]
    .filter(([, varbind]) => varbind.value === IF_DOWN || varbind.value === IF_LOWER_LAYER_DOWN)
    .map(([index]) => index);
  const down = allDown.slice(0, MAX_DOWN_CHECKED);
  if (down.length === 0) return;
  const answers = await get(
    session,
    down.flatMap((index) => [`${IF_ADMIN_STATUS}.${index}`, `${IF_DESCR}.${index}`]),
  );
  const enabled = down.flatMap((index, n) =>
    varbindValue(answers[2 * n]) === IF_UP ? [{ index, name: varbindValue(answers[2 * n + 1]) }] : [],
  );
  if (enabled.length > INTERFACE_FINDINGS) {
    const list = enabled.map((i) => i.index).join(', ');
    const more = allDown.length > down.length ? ', more not checked' : '';
    reading.findings.push({
      state: 'warning',
      reason: clamp(`${enabled.length} interfaces down${more}: ${list}`, 200),
    });
    return;
  }
  for (const { index, name } of enabled) {
    const named = name !== undefined && String(name) !== '' ? ` (${clamp(String(name), 40)})` : '';
    reading.findings.push({ state: 'warning', reason: `Interface ${index}${named} down` });
  }
}

async function readValues(session: snmp.Session, checks: SnmpOidCheck[], reading: Reading): Promise<void> {
  const answers = await get(
    session,
    checks.map((check) => check.oid),
  );
  checks.forEach((check, n) => {
    const value = varbindValue(answers[n]);
    if (value !== undefined) reading.values[check.label] = storedValue(value);
    const finding = judgeValue(check, value);
    if (finding) reading.findings.push(finding);
  });
}

function answered(reading: Reading, elapsedMs: number, timeoutMs: number): ProbeResult {
  const late: ProbeFinding[] = [...reading.pending].map((part) => ({
    state: 'warning',
    reason: `${part} not read within ${Number((timeoutMs / 1000).toFixed(2))} s`,
  }));
  const values = { ...reading.values };
  return {
    outcome: 'answered',
    durationMs: Math.round(elapsedMs),
    findings: [...reading.findings, ...late].slice(0, 50),
    ...reading.system,
    ...(Object.keys(values).length > 0 ? { values } : {}),
  };
}

/** The reading, the deadline, or the monitor stopping, whichever comes first. */
function bounded<T>(request: SnmpRequest, work: Promise<T>): Promise<T | 'deadline' | 'stopped'> {
  return new Promise((resolve) => {
    const finish = (outcome: T | 'deadline' | 'stopped') => {
      clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const timer = setTimeout(() => finish('deadline'), request.timeoutMs);
    const onAbort = () => finish('stopped');
    request.signal?.addEventListener('abort', onAbort, { once: true });
    void work.then(finish, () => finish('deadline'));
  });
}

/** Closing also fails the requests still waiting, which end the reading nobody awaits now. */
function closeQuietly(session: snmp.Session): void {
  try {
    session.close();
  } catch {
    // Already closed by a socket error: nothing left to release.
  }
}

function stopped(): ProbeResult {
  return { outcome: 'unreachable', findings: [], detail: 'Probe stopped before the device answered' };
}
