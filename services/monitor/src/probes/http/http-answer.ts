import type { ProbeFinding } from '@cm/contracts';
import type { ProbeResult } from '../probe';
import { connectionFailure, protocolError } from '../tcp/connection-failure';

const DAY_MS = 86_400_000;

/** 5xx is the server failing (error); 4xx a page that is not there or not allowed (warning). */
export function statusFindings(status: number): ProbeFinding[] {
  if (status >= 500) return [{ state: 'error', reason: `HTTP ${status}` }];
  if (status >= 400) return [{ state: 'warning', reason: `HTTP ${status}` }];
  return [];
}

/** An expired certificate is an error; one expiring within the warning days a warning. */
export function certificateFindings(expiresAt: Date, warningDays: number, now: Date): ProbeFinding[] {
  const day = expiresAt.toISOString().slice(0, 10);
  if (expiresAt.getTime() <= now.getTime())
    return [{ state: 'error', reason: `TLS certificate expired on ${day}` }];
  if (expiresAt.getTime() - now.getTime() <= warningDays * DAY_MS)
    return [{ state: 'warning', reason: `TLS certificate expires on ${day}` }];
  return [];
}

/** The peer certificate's `valid_to` ("Feb  1 00:00:00 2024 GMT"), when there is one to read. */
export function certificateExpiry(validTo: string | undefined): Date | undefined {
  if (!validTo) return undefined;
  const expiresAt = new Date(validTo);
  return Number.isNaN(expiresAt.getTime()) ? undefined : expiresAt;
}

/** A request error: TLS and HTTP failures are the device's protocol; the rest is the network's. */
export function httpFailure(error: unknown, address: string, port: number): ProbeResult {
  const code = String((error as NodeJS.ErrnoException | undefined)?.code ?? '');
  if (code.startsWith('ERR_SSL') || code === 'EPROTO' || code.startsWith('ERR_TLS'))
    return protocolError(`TLS handshake failed on port ${port}`);
  if (code.startsWith('HPE_')) return protocolError(`No HTTP answer on port ${port}`);
  return connectionFailure(error, address, port);
}
