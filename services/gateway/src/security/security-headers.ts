import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';
import { type Config } from '../config';

/**
 * Security headers on every response. The policy fits the Vite build: scripts and styles from
 * our origin (plus inline style attributes, which React components set), pictures from our
 * origin, data: and blob: (previews of a picked file), and the object store that browsers PUT
 * presigned uploads to.
 */
export function securityHeaders(config: Config): RequestHandler {
  const store = config.S3_PUBLIC_ENDPOINT ? [new URL(config.S3_PUBLIC_ENDPOINT).origin] : [];
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:', ...store],
        connectSrc: ["'self'", ...store],
        fontSrc: ["'self'", 'data:'],
        // The service worker (sw.js) and the web app manifest, both from our origin.
        workerSrc: ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The app is also served over plain HTTP on a laptop (127.0.0.1:8080): no upgrade, and
    // HSTS only means something when a proxy in front serves HTTPS (browsers ignore it over HTTP).
    strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
    referrerPolicy: { policy: 'same-origin' },
    xFrameOptions: { action: 'deny' },
  });
}

/** API answers are per user and change at any time: no cache, shared or private, keeps them. */
export function noStore(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
