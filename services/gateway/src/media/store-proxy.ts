import http, { type ClientRequest, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { ErrorCode, MAX_UPLOAD_BYTES, mediaMessages, messages, objectKeyPattern } from '@cm/contracts';
import { AppError, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable, Logger } from '@nestjs/common';
import type { Request, Response } from 'express';
import { type Config } from '../config';
import { type IdleTimers, UPLOAD_IDLE_TIMERS } from '../http/idle-timers';
import { ownOrigins, publicOriginOf } from '../security/same-origin';
import { drain } from './drain';
import { readStoreError, respond, storeFailed, storeRefusal } from './store-answer';
import { UploadSignature } from './upload-signature';
import { TooManyUploads, UploadSlots } from './upload-slots';

/** Where the gateway takes the uploads it forwards: `/store/<bucket>/<key>?<signature>`. */
export const STORE_PATH = '/store';

/** A presigned URL (SigV4) carries these; a PUT without them is no upload link of ours. */
const SIGNATURE_PARAMS = [
  'X-Amz-Algorithm',
  'X-Amz-Credential',
  'X-Amz-Date',
  'X-Amz-Expires',
  'X-Amz-SignedHeaders',
  'X-Amz-Signature',
];

/** How long the store may take to say "100 Continue" before the body is sent without it. */
const CONTINUE_WAIT_MS = 1000;
/** How long the store may take to answer once the whole file is sent. */
const STORE_ANSWER_MS = 60_000;

const idle = () => new AppError(ErrorCode.UPLOAD_TIMEOUT, mediaMessages.idle);
const refused = (message: string) => () => new AppError(ErrorCode.UPLOAD_LINK_REFUSED, message);
/** Why a link is not let through, by what is wrong with it. */
const linkRefused = {
  invalid: refused(
    'This upload link is not valid: it was altered, or the file is not the size the link was made for. Start the upload again.',
  ),
  expired: refused('The upload link has expired (Request has expired). Start the upload again.'),
  used: refused(
    'This upload link was already used: its picture is saved and cannot be replaced. Start a new upload for another picture.',
  ),
  unknown: refused('This upload link is no longer valid. Start the upload again.'),
};

/**
 * Browsers' presigned uploads, when they cannot reach the store themselves (no
 * S3_PUBLIC_ENDPOINT): media signs the PUT for the store's internal address, the browser is
 * handed the same URL under our origin, and `PUT /store/…` is streamed to the store unchanged.
 *
 * The signature stays valid because everything it covers is the same upstream: the method, the
 * path, the query, and the signed headers (the store's Host, which node sets from S3_ENDPOINT and
 * the bucket's addressing, and Content-Length). Nothing else of the browser's is forwarded (no
 * cookie, no x-amz-* header, which a store refuses unsigned) but Content-Type, which the store
 * keeps with the object.
 *
 * The signature is the only credential, as it is when browsers PUT to the store directly: no
 * session is read. The gateway does not leave the store to decide (the local one checks no
 * signature): before reading a byte it refuses what cannot be an upload of ours (another method
 * or bucket, a key media does not issue, a body of unknown size (411) or above the limit (413)),
 * checks the signature and expiry itself with media's credentials (UploadSignature), and asks
 * media whether the key is one it issued a link for and has not registered (403 otherwise).
 * Forwarded uploads count in UPLOAD_MAX_CONCURRENT and in the slots of the user who asked for
 * the link, one at a time per link, and one whose client sends nothing for
 * UPLOAD_IDLE_TIMEOUT_MS is cancelled (408).
 */
@Injectable()
export class StoreProxy {
  private readonly logger = new Logger(StoreProxy.name);
  /** The store as we reach it, when uploads go through us; null when browsers reach it themselves. */
  private readonly store: URL | null;
  /** The bucket's host and the path before a key, as media's signed URLs address them. */
  private readonly bucketHost: string;
  private readonly bucketPath: string;
  /** The Host header node sends the store, which the link's signature covers. */
  private readonly hostHeader: string;
  private readonly browserPrefix: string;
  private readonly idleMs: number;

  constructor(
    @Inject(CONFIG) private readonly config: Config,
    private readonly slots: UploadSlots,
    private readonly signature: UploadSignature,
    private readonly rpc: RpcClient,
    @Inject(UPLOAD_IDLE_TIMERS) private readonly timers: IdleTimers,
  ) {
    this.store = !config.S3_PUBLIC_ENDPOINT && config.S3_ENDPOINT ? new URL(config.S3_ENDPOINT) : null;
    const base = this.store?.pathname.replace(/\/+$/, '') ?? '';
    const pathStyle = config.S3_FORCE_PATH_STYLE;
    this.bucketHost = pathStyle
      ? (this.store?.hostname ?? '')
      : `${config.S3_BUCKET}.${this.store?.hostname}`;
    this.bucketPath = pathStyle ? `${base}/${config.S3_BUCKET}/` : `${base}/`;
    this.hostHeader = `${this.bucketHost}${this.store?.port ? `:${this.store.port}` : ''}`;
    this.browserPrefix = `${STORE_PATH}/${config.S3_BUCKET}/`;
    this.idleMs = config.UPLOAD_IDLE_TIMEOUT_MS;
  }

  /** Media's signed URLs start with this: the store, the bucket (by path or host), and `/`. */
  private get storePrefix(): string {
    const { protocol, port } = this.store!;
    return `${protocol}//${this.bucketHost}${port ? `:${port}` : ''}${this.bucketPath}`;
  }

  /** The URL a browser is to PUT to, for one media signed: under our origin when we forward. */
  forBrowser(signedUrl: string, req: Request): string {
    if (!this.store) return signedUrl;
    if (!signedUrl.startsWith(this.storePrefix)) {
      // Media signs for another address (its own S3_PUBLIC_ENDPOINT): browsers go there.
      this.logger.warn(`An upload URL outside ${this.storePrefix} is handed out as it is`);
      return signedUrl;
    }
    return `${this.originFor(req)}${this.browserPrefix}${signedUrl.slice(this.storePrefix.length)}`;
  }

  /** The store's URL of a link `forBrowser` handed out (the one media issued); any other unchanged. */
  forStore(url: string, req: Request): string {
    if (!this.store || !URL.canParse(url)) return url;
    const { origin, pathname, search } = new URL(url);
    if (!pathname.startsWith(this.browserPrefix) || !ownOrigins(this.config, req).includes(origin))
      return url;
    return `${this.storePrefix}${pathname.slice(this.browserPrefix.length)}${search}`;
  }

  /** Our origin as the browser knows it: the one it called from, when it is ours. */
  private originFor(req: Request): string {
    return publicOriginOf(this.config, req, [req.headers.origin]);
  }

  /** `PUT /store/<bucket>/<key>?…`, mounted at STORE_PATH (so `req.url` starts at the bucket). */
  readonly handle = (req: Request, res: Response): void => {
    res.setHeader('Cache-Control', 'no-store');
    if (!this.store) {
      const why = this.config.S3_PUBLIC_ENDPOINT
        ? 'Uploads go to the file store directly (S3_PUBLIC_ENDPOINT), not through here.'
        : 'Uploads cannot be forwarded: the gateway has no S3_ENDPOINT.';
      return this.refuse(req, res, new AppError(ErrorCode.NOT_FOUND, why));
    }
    if (req.method !== 'PUT') {
      res.setHeader('Allow', 'PUT');
      return this.refuse(
        req,
        res,
        new AppError(ErrorCode.METHOD_NOT_ALLOWED, 'Upload links take PUT only: files are read at /objects.'),
      );
    }
    const at = req.url.indexOf('?');
    const path = at < 0 ? req.url : req.url.slice(0, at);
    const query = at < 0 ? '' : req.url.slice(at + 1);
    const bucketPath = `/${this.config.S3_BUCKET}/`;
    const key = path.startsWith(bucketPath) ? path.slice(bucketPath.length) : '';
    if (!objectKeyPattern.test(key)) {
      return this.refuse(
        req,
        res,
        new AppError(ErrorCode.NOT_FOUND, 'No upload link here: request one with POST /api/objects/upload.'),
      );
    }
    const params = new URLSearchParams(query);
    const names = [...params.keys()];
    if (SIGNATURE_PARAMS.some((name) => !params.get(name))) {
      return this.refuse(
        req,
        res,
        new AppError(
          ErrorCode.UPLOAD_LINK_REFUSED,
          'This upload link is not signed. Request a new one with POST /api/objects/upload.',
        ),
      );
    }
    if (new Set(names).size !== names.length) return this.refuse(req, res, linkRefused.invalid());
    const declared = req.headers['content-length'];
    if (declared === undefined || req.headers['transfer-encoding']) {
      return this.refuse(
        req,
        res,
        new AppError(
          ErrorCode.LENGTH_REQUIRED,
          'The upload must state its size (Content-Length): send the file as one body.',
        ),
      );
    }
    const length = Number(declared);
    if (length > MAX_UPLOAD_BYTES) {
      return this.refuse(req, res, new AppError(ErrorCode.FILE_TOO_LARGE, mediaMessages.tooLarge));
    }
    const pathAndQuery = `${this.bucketPath}${key}?${query}`;
    void this.admit(req, res, key, Object.fromEntries(params), length).then(
      (release) => {
        if (!release) return;
        res.once('close', release);
        this.forward(req, res, pathAndQuery, length);
      },
      (error: unknown) => {
        this.logger.warn(`Could not check an upload link: ${String(error)}`);
        this.refuse(req, res, error instanceof AppError ? error : storeFailed());
      },
    );
  };

  /**
   * Lets a PUT through only as a store that checks signatures would, and only to a key media
   * issued a link for that is not yet registered: the local store checks nothing, and a link
   * stays signed for its whole lifetime, after registration too. Answers the upload's slot, or
   * refuses and answers null.
   */
  private async admit(
    req: Request,
    res: Response,
    key: string,
    query: Record<string, string>,
    length: number,
  ): Promise<(() => void) | null> {
    let closed = false;
    res.once('close', () => (closed = true));
    const verdict = await this.signature.verify({
      host: this.hostHeader,
      path: `${this.bucketPath}${key}`,
      query,
      contentLength: length,
    });
    if (verdict !== 'valid') {
      this.refuse(req, res, verdict === 'expired' ? linkRefused.expired() : linkRefused.invalid());
      return null;
    }
    const link = await this.rpc.send(messages.media.findUploadLink, { key });
    if (link.state !== 'open') {
      this.refuse(req, res, linkRefused[link.state]());
      return null;
    }
    if (closed) return null;
    try {
      // Slots of the user who asked for the link; a link of nobody's counts for itself alone.
      return this.slots.take(link.ownerId ?? `link:${key}`, key);
    } catch (error) {
      if (error instanceof TooManyUploads) res.setHeader('Retry-After', String(error.retryAfterSeconds));
      this.refuse(req, res, error as AppError);
      return null;
    }
  }

  /** Streams the body to the store at the client's pace, and answers what the store answers. */
  private forward(req: Request, res: Response, pathAndQuery: string, length: number): void {
    let upstream: ClientRequest;
    try {
      upstream = this.openUpstream(req, pathAndQuery, length);
    } catch {
      // node refuses a path with characters a URL may not hold unescaped.
      return this.refuse(
        req,
        res,
        new AppError(ErrorCode.VALIDATION_FAILED, 'The upload link is malformed. Request a new one.'),
      );
    }
    const stop = this.streamBody(req, res, upstream);

    // A store that answers before the whole body is sent may close the connection under our writes:
    // its answer is the one that counts.
    let answered = false;
    upstream.once('timeout', () => upstream.destroy(new Error(`no answer within ${STORE_ANSWER_MS} ms`)));
    upstream.on('error', (error) => {
      if (answered || res.headersSent || res.destroyed) return;
      stop();
      this.logger.warn(`Object store unreachable for a forwarded upload: ${String(error)}`);
      this.refuse(req, res, storeFailed());
    });
    upstream.once('response', (answer) => {
      answered = true;
      stop();
      void this.relay(req, res, answer);
    });
  }

  /** The PUT to the store, nothing sent yet; throws on a path node will not send. */
  private openUpstream(req: Request, pathAndQuery: string, length: number): ClientRequest {
    const store = this.store!;
    // The store decides on the link from the headers alone; asked to, it answers then, before any of
    // the body is sent. Otherwise a refusal mid-body closes the connection under our writes, and
    // node reports the broken pipe instead of the store's answer.
    const headers: OutgoingHttpHeaders = { 'content-length': length, expect: '100-continue' };
    if (req.headers['content-type']) headers['content-type'] = req.headers['content-type'];
    return (store.protocol === 'https:' ? https : http).request({
      protocol: store.protocol,
      // node writes the Host header from these, as the signer wrote it (IPv6 in brackets).
      hostname: this.bucketHost.replace(/^\[(.*)\]$/, '$1'),
      port: store.port || undefined,
      method: 'PUT',
      path: pathAndQuery,
      headers,
      // A connection of its own: a kept-alive one the store has meanwhile closed would fail the
      // upload, and a body streamed once cannot be sent again.
      agent: false,
      timeout: Math.max(STORE_ANSWER_MS, this.idleMs),
    });
  }

  /**
   * Copies the client's body to the store once the store says to go on, pausing the client while
   * the store holds us back. Answers the function that stops the copy.
   */
  private streamBody(req: Request, res: Response, upstream: ClientRequest): () => void {
    // The client's silence counts, not the store's: while the store holds us back, the timer waits.
    let heldByStore = true;
    const timer = this.timers.start(this.idleMs, function expire() {
      if (heldByStore) return timer.refresh();
      stop();
      upstream.destroy();
      res.setHeader('Connection', 'close');
      respond(res, idle());
    });
    const onData = (chunk: Buffer) => {
      timer.refresh();
      if (!upstream.write(chunk)) {
        heldByStore = true;
        req.pause();
      }
    };
    const onDrain = () => {
      heldByStore = false;
      timer.refresh();
      req.resume();
    };
    const onEnd = () => {
      timer.clear();
      upstream.end();
    };
    let sending = false;
    const send = () => {
      if (sending) return;
      sending = true;
      clearTimeout(unanswered);
      req.on('data', onData);
      req.once('end', onEnd);
      upstream.on('drain', onDrain);
      onDrain();
    };
    // A store that ignores Expect never says to go on: then the body goes all the same.
    const unanswered = setTimeout(send, CONTINUE_WAIT_MS);
    const stop = () => {
      timer.clear();
      clearTimeout(unanswered);
      sending = true;
      req.off('data', onData);
      req.off('end', onEnd);
      upstream.off('drain', onDrain);
    };
    upstream.once('continue', send);
    upstream.flushHeaders();
    // The client went away before its answer: the store gets no complete body, and keeps nothing.
    res.once('close', () => {
      if (res.writableFinished) return;
      stop();
      upstream.destroy();
    });
    return stop;
  }

  private async relay(req: Request, res: Response, answer: IncomingMessage): Promise<void> {
    const status = answer.statusCode ?? 0;
    if (status >= 200 && status < 300) {
      answer.resume();
      if (answer.headers.etag) res.setHeader('ETag', answer.headers.etag);
      res.status(200).end();
      return;
    }
    const { code, message } = await readStoreError(answer);
    if (res.headersSent || res.destroyed) return;
    // Upload libraries name the store's refusal by this header, as when they reach the store directly.
    if (code && /^\w+$/.test(code)) res.setHeader('x-amz-error-code', code);
    this.refuse(req, res, storeRefusal(status, code, message, this.logger));
  }

  /** Answers now; what the client still sends is read and dropped, so that it reads the answer. */
  private refuse(req: Request, res: Response, error: AppError): void {
    respond(res, error);
    void drain(req, this.idleMs);
  }
}
