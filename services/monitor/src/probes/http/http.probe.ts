import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { TLSSocket } from 'node:tls';
import type { ProbeSettings } from '@cm/contracts';
import type { DeviceProbe, ProbeRequest, ProbeResult } from '../probe';
import { protocolError, stopped } from '../tcp/connection-failure';
import { withDeadline } from '../tcp/deadline';
import { certificateExpiry, certificateFindings, httpFailure, statusFindings } from './http-answer';

type HttpRequest = ProbeRequest<Extract<ProbeSettings, { type: 'http' }>>;

/**
 * HTTP(S) GET of the settings' path: the status code, the time to the answer's headers and, over
 * HTTPS, the certificate's expiry. Devices' certificates are self-signed as a rule, so the
 * certificate is read, never verified. The body is never read: the answer's status is the health.
 */
export class HttpProbe implements DeviceProbe<'http'> {
  readonly type = 'http' as const;

  constructor(private readonly now: () => Date = () => new Date()) {}

  probe(request: HttpRequest): Promise<ProbeResult> {
    const { address, port, settings, signal } = request;
    if (signal?.aborted) return Promise.resolve(stopped());

    return new Promise((resolve) => {
      const started = performance.now();
      let get: ClientRequest;
      try {
        get = (settings.https ? httpsRequest : httpRequest)({
          host: address,
          port,
          path: settings.path,
          method: 'GET',
          agent: false,
          rejectUnauthorized: false,
          headers: { 'user-agent': 'classroom-monitor', accept: '*/*', connection: 'close' },
        });
      } catch (error) {
        // Node refuses some paths outright (a space, a control character) before sending anything.
        return resolve(protocolError(`The request cannot be sent: ${(error as Error).message}`));
      }
      // No keep-alive agent: destroying the request closes its socket, whatever was left unread.
      const { finish } = withDeadline(request, resolve, () => get.destroy());

      get.on('response', (answer) => {
        const durationMs = performance.now() - started;
        try {
          finish(this.answered(answer, durationMs, settings));
        } catch (error) {
          finish(protocolError(`Unreadable answer: ${(error as Error).message}`, durationMs));
        }
      });
      get.on('error', (error) => finish(httpFailure(error, address, port)));
      get.end();
    });
  }

  private answered(
    answer: IncomingMessage,
    durationMs: number,
    settings: HttpRequest['settings'],
  ): ProbeResult {
    const status = answer.statusCode ?? 0;
    const expiresAt = settings.https
      ? certificateExpiry((answer.socket as TLSSocket).getPeerCertificate?.()?.valid_to)
      : undefined;
    answer.destroy();
    return {
      outcome: 'answered',
      durationMs,
      findings: [
        ...statusFindings(status),
        ...(expiresAt ? certificateFindings(expiresAt, settings.certificateWarningDays, this.now()) : []),
      ],
      certificateExpiresAt: expiresAt?.toISOString(),
    };
  }
}
