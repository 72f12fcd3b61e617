import { existsSync } from 'node:fs';
import path from 'node:path';
import { closeConnectionsWhenDraining, httpMetrics, httpTraceContext, JsonLogger } from '@cm/platform';
import { NestFactory } from '@nestjs/core';
import { type NestExpressApplication } from '@nestjs/platform-express';
import express from 'express';
import { AppModule } from './app.module';
import { type Config } from './config';
import { bodyErrorHandler } from './http/body-error.handler';
import { middlewareChain } from './http/middleware-chain';
import { HttpErrorFilter } from './http/http-error.filter';
import { webApp } from './http/web-app';
import { STORE_PATH, StoreProxy } from './media/store-proxy';
import { sameOriginGuard } from './security/same-origin';
import { noStore, securityHeaders } from './security/security-headers';
import { SessionStore } from './session/session-store';
import { sessionMiddleware } from './session/session.middleware';
import { SignOutTokens } from './session/sign-out-token';

/** Builds the gateway application (not yet listening): the API, and the web app around it. */
export async function createGateway(config: Config): Promise<NestExpressApplication> {
  const logger = new JsonLogger('gateway', config.LOG_LEVEL);
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config), {
    logger,
    bodyParser: false,
    abortOnError: false,
  });
  app.disable('x-powered-by');
  app.set('trust proxy', config.TRUST_PROXY);
  // Express would hash every JSON answer for an ETag, pointless on `no-store` API answers; static
  // files keep theirs (express.static has its own) and objects keep the store's.
  app.set('etag', false);
  // Every request's first steps, as one layer of Express's router (see middlewareChain).
  app.use(
    middlewareChain(
      // First, so that everything after it (the access line too) runs in the request's trace.
      httpTraceContext(),
      // An access line per request at debug level, with its trace and span ids.
      httpMetrics({ log: config.LOG_LEVEL === 'debug' ? (entry) => logger.debug(entry) : undefined }),
      closeConnectionsWhenDraining(),
      securityHeaders(config),
      sameOriginGuard(config),
    ),
  );
  app.use('/api', noStore);
  // Ahead of the JSON parser: an upload's body is the file, streamed to the store as it comes.
  app.use(STORE_PATH, express.Router().all('/{*path}', app.get(StoreProxy).handle));
  app.use(express.json({ limit: '1mb' }));
  app.use(bodyErrorHandler);

  const webIndex = path.join(config.WEB_DIST_DIR, 'index.html');
  const webBuilt = existsSync(webIndex);
  if (webBuilt) {
    // A lookup in the build's file list, made at start: an API path costs no file-system call.
    app.use(webApp(config.WEB_DIST_DIR));
  } else {
    logger.warn(`No web app at ${config.WEB_DIST_DIR}: run "npm run build" to serve it`);
  }
  // Static files need no session: only the API and the objects read it.
  app.use(['/api', '/objects'], sessionMiddleware(app.get(SessionStore)));
  app.use('/api', app.get(SignOutTokens).issue);
  app.useGlobalFilters(new HttpErrorFilter(webBuilt ? webIndex : null));
  return app;
}
