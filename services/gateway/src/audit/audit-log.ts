import { createHash, randomUUID } from 'node:crypto';
import { activeTraceId } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { type User } from '@cm/contracts';
import { type SignedInRequest } from '../identity/current-user';
import { type Clock } from '../throttle/login-throttle.service';
import { AuditRepository, type NewAuditEntry } from './audit.repository';

/** The audit log's time; a test moves it by hand. */
export const AUDIT_CLOCK = Symbol('AUDIT_CLOCK');
export const auditClockProvider = {
  provide: AUDIT_CLOCK,
  useFactory: (): Clock => ({ now: () => Date.now() }),
};

const MINUTE_MS = 60_000;

const requestIdShape = /^[A-Za-z0-9._:-]{1,128}$/;

/** An entry as its writer knows it: who, from where and when are the request's. */
export type AuditNote = Omit<
  NewAuditEntry,
  'actorId' | 'actorName' | 'apiTokenId' | 'requestId' | 'clientAddress' | 'at'
>;

/**
 * Writes one entry of the audit log for a request: the audited routes' interceptor, and the single
 * sign-on callback, whose answer is a redirect the interceptor cannot read.
 */
@Injectable()
export class AuditLog {
  private readonly logger = new Logger(AuditLog.name);

  constructor(
    private readonly entries: AuditRepository,
    @Inject(AUDIT_CLOCK) private readonly clock: Clock,
  ) {}

  /** A sign-in, whichever way: `user` is the request's actor from now on. */
  signedIn(req: SignedInRequest, user: User, after: NewAuditEntry['after'] = null): Promise<void> {
    req.user = user;
    return this.write(req, {
      action: 'sign-in',
      entityType: 'session',
      entityId: user.id,
      before: null,
      after,
    });
  }

  /**
   * A refused sign-in: `after` says who was tried (when known) and why it was refused. Nobody is
   * signed in, so the actor is only the name that was tried; counted as `refusedAnonymously` says.
   */
  signInRefused(req: SignedInRequest, after: NonNullable<NewAuditEntry['after']>): Promise<void> {
    const tried = typeof after.username === 'string' ? after.username : null;
    return this.refusedAnonymously(
      req,
      { action: 'sign-in-failed', entityType: 'session', entityId: null, before: null, after },
      tried,
    );
  }

  /**
   * A refusal of someone not signed in, which anyone can cause as often as they like: counted
   * into one entry per client address, minute and kind (the entry's values without the name
   * tried, which the caller chooses), which keeps the first one's details. A flood stays a row a
   * minute, and a person's own refusal still shows.
   */
  refusedAnonymously(req: SignedInRequest, entry: AuditNote, tried: string | null): Promise<void> {
    const minute = Math.floor(this.clock.now() / MINUTE_MS) * MINUTE_MS;
    const { username: _tried, ...kind } = entry.after ?? {};
    const sampleKey = `${new Date(minute).toISOString()} ${createHash('sha256')
      .update(JSON.stringify([entry.entityType, entry.entityId, kind]))
      .digest('base64url')}`;
    return this.record(req, entry, { id: null, name: tried }, sampleKey);
  }

  /** An entry whose actor is the signed-in user. */
  write(req: SignedInRequest, entry: AuditNote): Promise<void> {
    return this.record(req, entry, { id: req.user?.id ?? null, name: req.user?.username ?? null });
  }

  private async record(
    req: SignedInRequest,
    entry: AuditNote,
    actor: { id: string | null; name: string | null },
    sampleKey?: string,
  ): Promise<void> {
    try {
      const full: NewAuditEntry = {
        ...entry,
        at: new Date(this.clock.now()),
        actorId: actor.id,
        actorName: actor.name,
        apiTokenId: req.apiTokenId ?? null,
        requestId: requestIdOf(req),
        clientAddress: (req.ip ?? 'unknown').slice(0, 64),
      };
      await (sampleKey === undefined
        ? this.entries.insert(full)
        : this.entries.insertOrCount(full, sampleKey));
    } catch (error) {
      this.logger.error(
        `Audit entry not written (${entry.action} ${entry.entityType} ${entry.entityId ?? ''}): ${String(error)}`,
      );
    }
  }
}

/**
 * The request's id: one the client or a proxy sent (X-Request-Id), else the trace's, else a new one;
 * answered in X-Request-Id so that a person can quote it.
 */
export function requestIdOf(req: SignedInRequest & { auditRequestId?: string }): string {
  if (req.auditRequestId) return req.auditRequestId;
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && requestIdShape.test(sent) ? sent : (activeTraceId() ?? randomUUID());
  req.auditRequestId = id;
  const res = req.res as Response | undefined;
  if (res && !res.headersSent) res.setHeader('X-Request-Id', id);
  return id;
}
