import { randomUUID } from 'node:crypto';
import { activeTraceId } from '@cm/platform';
import { Injectable, Logger } from '@nestjs/common';
import type { Response } from 'express';
import { type User } from '@cm/contracts';
import { type SignedInRequest } from '../auth/current-user';
import { AuditRepository, type NewAuditEntry } from './audit.repository';

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

  constructor(private readonly entries: AuditRepository) {}

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
   * signed in, so the actor is only the name that was tried.
   */
  signInRefused(req: SignedInRequest, after: NonNullable<NewAuditEntry['after']>): Promise<void> {
    const tried = typeof after.username === 'string' ? after.username : null;
    return this.write(
      req,
      { action: 'sign-in-failed', entityType: 'session', entityId: null, before: null, after },
      { id: null, name: tried },
    );
  }

  /** `actor`: the signed-in user, unless the caller names another (a refused sign-in). */
  async write(
    req: SignedInRequest,
    entry: AuditNote,
    actor: { id: string | null; name: string | null } = {
      id: req.user?.id ?? null,
      name: req.user?.username ?? null,
    },
  ): Promise<void> {
    try {
      await this.entries.insert({
        ...entry,
        at: new Date(),
        actorId: actor.id,
        actorName: actor.name,
        apiTokenId: req.apiTokenId ?? null,
        requestId: requestIdOf(req),
        clientAddress: (req.ip ?? 'unknown').slice(0, 64),
      });
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
