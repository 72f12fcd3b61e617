import { parseEnv, type RpcClient } from '@cm/platform';
import type { Request } from 'express';
import { configSchema } from '../config';
import { type IdleTimers } from '../http/idle-timers';
import { StoreProxy } from './store-proxy';
import { UploadSignature } from './upload-signature';
import { UploadSlots } from './upload-slots';

describe(StoreProxy.name, () => {
  const key = 'uploads/0f8fad5b-d9cb-469f-a165-70867728950e';
  const query = '?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Signature=abc';
  const proxyOf = (env: Record<string, string>) => {
    const config = parseEnv(configSchema, {
      SESSION_SECRET: 'x'.repeat(32),
      S3_BUCKET: 'cm-media',
      S3_ACCESS_KEY_ID: 'key',
      S3_SECRET_ACCESS_KEY: 'secret',
      ...env,
    });
    // Handing out and mapping back links asks nobody and waits for nothing.
    const rpc = {} as RpcClient;
    const timers = {} as IdleTimers;
    return new StoreProxy(config, new UploadSlots(config), new UploadSignature(config), rpc, timers);
  };
  const request = (host: string, origin?: string) =>
    ({ protocol: 'https', host, headers: origin ? { origin } : {} }) as unknown as Request;

  it('hands out a path-style URL of the store under the origin the browser called, and maps it back', () => {
    const sut = proxyOf({ S3_ENDPOINT: 'http://minio:9000' });
    const signed = `http://minio:9000/cm-media/${key}${query}`;
    const req = request('monitor.campus.edu');
    const browser = sut.forBrowser(signed, req);
    expect(browser).toBe(`https://monitor.campus.edu/store/cm-media/${key}${query}`);
    expect(sut.forStore(browser, req)).toBe(signed);
  });

  it('keeps the base path of S3_ENDPOINT, and the bucket in the host without path-style addressing', () => {
    const based = proxyOf({ S3_ENDPOINT: 'https://files.campus.edu/s3/' });
    const signed = `https://files.campus.edu/s3/cm-media/${key}${query}`;
    const req = request('monitor.campus.edu');
    expect(based.forStore(based.forBrowser(signed, req), req)).toBe(signed);

    const hosted = proxyOf({ S3_ENDPOINT: 'https://s3.campus.edu', S3_FORCE_PATH_STYLE: 'false' });
    const virtual = `https://cm-media.s3.campus.edu/${key}${query}`;
    expect(hosted.forBrowser(virtual, req)).toBe(`https://monitor.campus.edu/store/cm-media/${key}${query}`);
    expect(hosted.forStore(hosted.forBrowser(virtual, req), req)).toBe(virtual);
  });

  it('uses the PUBLIC_ORIGIN the browser called from, and maps back links under those origins only', () => {
    const sut = proxyOf({
      S3_ENDPOINT: 'http://minio:9000',
      PUBLIC_ORIGIN: 'https://monitor.campus.edu,https://av.campus.edu',
    });
    const signed = `http://minio:9000/cm-media/${key}${query}`;
    expect(sut.forBrowser(signed, request('gateway:8080', 'https://av.campus.edu'))).toMatch(
      /^https:\/\/av\.campus\.edu\/store\//,
    );
    // A client without Origin that reached an internal name gets the first public origin.
    expect(sut.forBrowser(signed, request('gateway:8080'))).toMatch(
      /^https:\/\/monitor\.campus\.edu\/store\//,
    );

    const req = request('monitor.campus.edu');
    for (const foreign of [
      `https://evil.example/store/cm-media/${key}${query}`,
      `https://monitor.campus.edu/elsewhere/cm-media/${key}`,
      'not a URL',
    ]) {
      expect(sut.forStore(foreign, req)).toBe(foreign);
    }
  });

  it('hands out what media signed unchanged when browsers reach the store themselves', () => {
    const sut = proxyOf({ S3_ENDPOINT: 'http://minio:9000', S3_PUBLIC_ENDPOINT: 'https://files.campus.edu' });
    const signed = `https://files.campus.edu/cm-media/${key}${query}`;
    const req = request('monitor.campus.edu');
    expect(sut.forBrowser(signed, req)).toBe(signed);
    expect(sut.forStore(signed, req)).toBe(signed);
  });
});
