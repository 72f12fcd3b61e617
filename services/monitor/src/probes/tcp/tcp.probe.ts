import type { ProbeSettings } from '@cm/contracts';
import type { DeviceProbe, ProbeRequest, ProbeResult } from '../probe';
import { runTcpSession } from './tcp-session';

/**
 * A device whose protocol is closed (Crestron's 41794/41796) or not worth speaking: it is healthy
 * when it accepts a connection, which is closed again at once.
 */
export class TcpProbe implements DeviceProbe<'tcp'> {
  readonly type = 'tcp' as const;

  probe(request: ProbeRequest<Extract<ProbeSettings, { type: 'tcp' }>>): Promise<ProbeResult> {
    return runTcpSession(request, {
      onConnect: (session) =>
        session.finish({ outcome: 'answered', findings: [], durationMs: session.elapsedMs() }),
    });
  }
}
