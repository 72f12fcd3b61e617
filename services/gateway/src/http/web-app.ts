import { readdirSync } from 'node:fs';
import path from 'node:path';
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';

/** Hashed names (Vite's assets/) never change content: a year, and no revalidation. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** index.html, sw.js, the manifest and the icons keep their names across releases: ask each time. */
export const REVALIDATE = 'no-cache';

interface WebFile {
  br: boolean;
  gzip: boolean;
}

/** Every file of the build by its URL path, with the compressed copies the build wrote beside it. */
function listFiles(dist: string): Map<string, WebFile> {
  const names = readdirSync(dist, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map(
      (entry) => '/' + path.relative(dist, path.join(entry.parentPath, entry.name)).split(path.sep).join('/'),
    );
  const present = new Set(names);
  const files = new Map<string, WebFile>();
  for (const name of names) {
    if (/\.(br|gz)$/.test(name)) continue;
    files.set(name, { br: present.has(`${name}.br`), gzip: present.has(`${name}.gz`) });
  }
  return files;
}

/** The encodings a client takes, leaving out any it refuses with q=0. */
function accepted(header: string | undefined): Set<string> {
  const codings = new Set<string>();
  for (const part of (header ?? '').split(',')) {
    const [coding, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    if (coding && !(q && Number(q.slice(2)) === 0)) codings.add(coding);
  }
  return codings;
}

/**
 * Serves the built web app: each file as brotli or gzip when the client takes it (precompressed
 * at build, web/vite-precompress.ts, so no request pays for compression), with `Vary:
 * Accept-Encoding`, year-long caching for hashed files and revalidation for the rest. The files are
 * listed once at start: a release is a new process. Paths that name no file go on (the API, and
 * deep links, which the error filter answers with index.html).
 */
export function webApp(dist: string): RequestHandler {
  const files = listFiles(dist);
  const serve = express.static(dist, { index: false, cacheControl: false, redirect: false });
  return (req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const name = req.path === '/' ? '/index.html' : req.path;
    const file = files.get(name);
    if (!file) return next();
    const codings = accepted(req.headers['accept-encoding']);
    const coding = file.br && codings.has('br') ? 'br' : file.gzip && codings.has('gzip') ? 'gzip' : null;
    if (file.br || file.gzip) res.vary('Accept-Encoding');
    res.setHeader('Cache-Control', name.startsWith('/assets/') ? IMMUTABLE : REVALIDATE);
    // The type of the file named, not of its compressed copy (the static server keeps a type set).
    res.type(path.extname(name));
    if (coding) res.setHeader('Content-Encoding', coding);
    req.url = coding ? `${name}.${coding === 'br' ? 'br' : 'gz'}` : name;
    serve(req, res, next);
  };
}
