import { isIPv6 } from 'node:net';
import type { ProbeSettings } from '@cm/contracts';
import * as snmp from 'net-snmp';
import type { ProbeRequest, ProbeResult } from '../probe';

export type SnmpSettings = Extract<ProbeSettings, { type: 'snmp' }>;
export type SnmpRequest = ProbeRequest<SnmpSettings>;

/** What to say when a setting the probe needs is missing; undefined when all are there. */
export function missingCredential({ settings, secrets }: SnmpRequest): string | undefined {
  if (settings.version === '2c') return secrets.community ? undefined : 'SNMP community not set';
  if (!settings.username) return 'SNMP v3 user name not set';
  const level = securityLevel(settings, secrets);
  if (level !== 'noAuthNoPriv' && !secrets.authKey) return 'SNMP v3 authentication key not set';
  if (level === 'authPriv' && !secrets.privKey) return 'SNMP v3 privacy key not set';
  return undefined;
}

/** The level set, else the strongest the keys given allow. */
function securityLevel(settings: SnmpSettings, secrets: SnmpRequest['secrets']) {
  if (settings.securityLevel) return settings.securityLevel;
  if (secrets.authKey && secrets.privKey) return 'authPriv';
  return secrets.authKey ? 'authNoPriv' : 'noAuthNoPriv';
}

function v3User({ settings, secrets }: SnmpRequest): snmp.User {
  const level = securityLevel(settings, secrets);
  const user: snmp.User = { name: settings.username ?? '', level: snmp.SecurityLevel[level] };
  if (level === 'noAuthNoPriv') return user;
  user.authProtocol = snmp.AuthProtocols[settings.authProtocol ?? 'sha'];
  user.authKey = secrets.authKey;
  if (level === 'authNoPriv') return user;
  user.privProtocol = snmp.PrivProtocols[settings.privProtocol ?? 'aes'];
  user.privKey = secrets.privKey;
  return user;
}

/**
 * A session whose requests each get half the probe's time and one retry, so a lost datagram is
 * sent again; the probe's own deadline bounds the whole.
 */
export function openSession(request: SnmpRequest): snmp.Session {
  const common = {
    port: request.port,
    timeout: Math.max(50, Math.floor(request.timeoutMs / 2)),
    retries: 1,
    backoff: 1,
    transport: isIPv6(request.address) ? ('udp6' as const) : ('udp4' as const),
  };
  const session =
    request.settings.version === '2c'
      ? snmp.createSession(request.address, request.secrets.community, { ...common, version: snmp.Version2c })
      : snmp.createV3Session(request.address, v3User(request), common);
  // A garbled datagram is reported here; without a listener it would crash the monitor.
  session.on('error', () => undefined);
  return session;
}

export function get(session: snmp.Session, oids: string[]): Promise<snmp.Varbind[]> {
  return new Promise((resolve, reject) => {
    session.get(oids, (error, varbinds) => (error ? reject(error) : resolve(varbinds ?? [])));
  });
}

/**
 * A table column by row index (the OID's last number), at most `max` rows. The walk also ends at
 * an error varbind or an OID that does not advance: net-snmp's own agent answers past the end of
 * its MIB with noSuchObject at the same OID, which net-snmp's walk would ask about forever.
 */
export function column(session: snmp.Session, oid: string, max: number): Promise<Map<number, snmp.Varbind>> {
  return new Promise((resolve, reject) => {
    const rows = new Map<number, snmp.Varbind>();
    let last = 0;
    session.subtree(
      oid,
      Math.min(max, 32),
      (varbinds) => {
        for (const varbind of varbinds) {
          const index = Number(varbind.oid.slice(oid.length + 1));
          if (snmp.isVarbindError(varbind) || !(index > last) || rows.size >= max) return true;
          rows.set(index, varbind);
          last = index;
        }
        return rows.size >= max;
      },
      (error) => (error ? reject(error) : resolve(rows)),
    );
  });
}

export function silence(version: SnmpSettings['version']): ProbeResult {
  const detail =
    version === '2c' ? 'No SNMP answer (wrong community or agent down)' : 'No SNMP answer (agent down)';
  return { outcome: 'unreachable', findings: [], detail };
}

const refusals: Partial<Record<string, string>> = {
  'Unknown User Name': 'unknown user',
  'Wrong Digest (incorrect password, community or key)': 'wrong key',
  'Unsupported Security Level': 'security level not accepted',
  'Decryption Error': 'wrong privacy key',
};

function refused(version: SnmpSettings['version'], why?: string): ProbeResult {
  const words = version === '2c' ? 'SNMP community refused' : 'SNMP v3 credentials refused';
  return { outcome: 'auth-failed', findings: [], detail: why ? `${words} (${why})` : words };
}

/** How a failed request ends the probe, in words an operator can act on. */
export function failure(error: unknown, version: SnmpSettings['version']): ProbeResult {
  // net-snmp's error classes, told apart by name: code on ResponseInvalidError, status on RequestFailedError.
  const e = error as { name?: string; message?: string; code?: number; status?: number } | undefined;
  if (e?.name === 'RequestTimedOutError') return silence(version);
  if (e?.name === 'ResponseInvalidError') {
    if (e.code === snmp.ResponseInvalidCode.EAuthFailure) return refused(version, refusals[e.message ?? '']);
    if (e.code === snmp.ResponseInvalidCode.ECouldNotDecrypt) return refused(version, 'wrong privacy key');
  }
  if (e?.name === 'RequestFailedError' && e.status === snmp.ErrorStatus.AuthorizationError) {
    return refused(version);
  }
  const status =
    e?.name === 'RequestFailedError'
      ? snmp.ErrorStatus[e.status ?? snmp.ErrorStatus.GeneralError]
      : undefined;
  const detail = status ? `SNMP error: ${status}` : `SNMP request failed: ${String(e?.message ?? error)}`;
  return { outcome: 'protocol-error', findings: [], detail: detail.slice(0, 300) };
}
