import type { ProbeSettings } from '@cm/contracts';
import type { DeviceProbe, ProbeRequest, ProbeResult } from '../probe';
import { protocolError } from '../tcp/connection-failure';
import { runTcpSession, type TcpSession } from '../tcp/tcp-session';
import { QrcFrames, qrcFrame } from './qrc-frames';
import { qrcStatusSchema, readQrcStatus } from './qsys-status';

type QsysRequest = ProbeRequest<Extract<ProbeSettings, { type: 'qsys' }>>;

const LOGON_ID = 1;
const STATUS_ID = 2;
/** QRC errors: a command that needs a logon first; a command sent to the standby core of a pair. */
const LOGON_REQUIRED = 10;
const CORE_ON_STANDBY = -32604;

interface QrcMessage {
  id?: unknown;
  method?: unknown;
  result?: unknown;
  error?: { code?: unknown; message?: unknown };
}

/**
 * Q-SYS Remote Control (QRC, TCP 1710): an optional `Logon`, then `StatusGet`. Both go out at
 * once; the core answers in order, so a refused logon is known before the status arrives.
 */
export class QsysProbe implements DeviceProbe<'qsys'> {
  readonly type = 'qsys' as const;

  probe(request: QsysRequest): Promise<ProbeResult> {
    const frames = new QrcFrames();
    const logon = Boolean(request.settings.username || request.secrets.password);
    let logonRefused = false;

    const onMessage = (text: string, session: TcpSession) => {
      let message: QrcMessage;
      try {
        message = JSON.parse(text) as QrcMessage;
      } catch {
        return session.finish(protocolError('Q-SYS sent an answer that is not JSON', session.elapsedMs()));
      }
      // Notifications (the `EngineStatus` a core pushes on connect) carry no id of ours.
      if (message.id === LOGON_ID && message.error) logonRefused = true;
      if (message.id !== STATUS_ID) return;
      session.finish(statusAnswer(message, { logon, logonRefused }, session.elapsedMs()));
    };

    return runTcpSession(request, {
      onConnect: (session) => {
        const messages: object[] = logon
          ? [
              {
                jsonrpc: '2.0',
                method: 'Logon',
                params: { User: request.settings.username ?? '', Password: request.secrets.password ?? '' },
                id: LOGON_ID,
              },
            ]
          : [];
        messages.push({ jsonrpc: '2.0', method: 'StatusGet', params: 0, id: STATUS_ID });
        session.write(messages.map(qrcFrame).join(''));
      },
      onData: (chunk, session) => {
        for (const text of frames.push(chunk)) onMessage(text, session);
      },
    });
  }
}

function statusAnswer(
  message: QrcMessage,
  auth: { logon: boolean; logonRefused: boolean },
  durationMs: number,
): ProbeResult {
  if (auth.logonRefused)
    return { outcome: 'auth-failed', findings: [], durationMs, detail: 'Q-SYS logon refused' };
  if (message.error) {
    const { code, message: words } = message.error;
    if (code === LOGON_REQUIRED)
      return {
        outcome: 'auth-failed',
        findings: [],
        durationMs,
        detail: auth.logon ? 'Q-SYS logon refused' : 'Q-SYS asks for a logon: set a user name and password',
      };
    // Only a redundant pair's backup answers this: it is there and waiting, as it should be.
    if (code === CORE_ON_STANDBY) return { outcome: 'answered', findings: [], durationMs, power: 'standby' };
    return protocolError(`Q-SYS error ${String(code)}: ${String(words ?? '')}`, durationMs);
  }
  const status = qrcStatusSchema.safeParse(message.result);
  if (!status.success) return protocolError('Q-SYS sent a status the monitor cannot read', durationMs);
  return { outcome: 'answered', durationMs, ...readQrcStatus(status.data) };
}
