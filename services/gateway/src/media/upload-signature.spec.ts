import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { parseEnv } from '@cm/platform';
import { configSchema } from '../config';
import { type SignedPut, UploadSignature } from './upload-signature';

describe(UploadSignature.name, () => {
  const key = 'uploads/0f8fad5b-d9cb-469f-a165-70867728950e';
  const credentials = { accessKeyId: 'media-key', secretAccessKey: 'media-secret' };
  const signedAt = new Date('2026-03-02T10:00:00Z');
  const sut = new UploadSignature(
    parseEnv(configSchema, {
      SESSION_SECRET: 'x'.repeat(32),
      S3_ENDPOINT: 'http://minio:9000',
      S3_ACCESS_KEY_ID: credentials.accessKeyId,
      S3_SECRET_ACCESS_KEY: credentials.secretAccessKey,
    }),
  );

  /** A link as media signs it (ObjectStore.presignPut), at `signedAt`, and the PUT the gateway would send. */
  const linkOf = async (contentLength: number, signer = credentials, region = 'us-east-1') => {
    const client = new S3Client({
      endpoint: 'http://minio:9000',
      region,
      forcePathStyle: true,
      credentials: signer,
      requestChecksumCalculation: 'WHEN_REQUIRED',
    });
    const url = new URL(
      await getSignedUrl(
        client,
        new PutObjectCommand({ Bucket: 'cm-media', Key: key, ContentLength: contentLength }),
        { expiresIn: 900, signableHeaders: new Set(['content-length']), signingDate: signedAt },
      ),
    );
    client.destroy();
    return (length = contentLength): SignedPut => ({
      host: url.host,
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      contentLength: length,
    });
  };
  const at = (seconds: number) => signedAt.getTime() + seconds * 1000;

  it('takes a link media signed, for the size it was signed for, within its lifetime', async () => {
    const put = await linkOf(1234);
    expect(await sut.verify(put(), at(1))).toBe('valid');
    expect(await sut.verify(put(), at(899))).toBe('valid');
    expect(await sut.verify(put(1235), at(1))).toBe('invalid');
  });

  it('calls a link past its lifetime expired, and one dated far ahead of our clock invalid', async () => {
    const put = await linkOf(10);
    expect(await sut.verify(put(), at(901))).toBe('expired');
    expect(await sut.verify(put(), at(-16 * 60))).toBe('invalid');
    expect(await sut.verify(put(), at(-60))).toBe('valid');
  });

  it('refuses a link altered in any part the signature covers, or signed with other keys', async () => {
    const put = (await linkOf(10))();
    const altered = (change: Partial<SignedPut> | Record<string, string>) =>
      'path' in change || 'host' in change
        ? { ...put, ...change }
        : { ...put, query: { ...put.query, ...(change as Record<string, string>) } };
    for (const change of [
      { 'X-Amz-Signature': '0'.repeat(64) },
      { 'X-Amz-Expires': '3600' },
      { 'X-Amz-SignedHeaders': 'host' },
      { 'X-Amz-Expires': '0900' },
      { path: put.path.replace(key, 'uploads/6c84fb90-12c4-11e1-840d-7b25c5ee775a') },
      { host: 'store.elsewhere:9000' },
    ]) {
      expect([change, await sut.verify(altered(change), at(1))]).toEqual([change, 'invalid']);
    }
    const { 'X-Amz-Signature': _signature, ...unsigned } = put.query;
    expect(await sut.verify({ ...put, query: unsigned }, at(1))).toBe('invalid');
    const stranger = (await linkOf(10, { accessKeyId: 'media-key', secretAccessKey: 'guessed' }))();
    expect(await sut.verify(stranger, at(1))).toBe('invalid');
    const elsewhere = (await linkOf(10, credentials, 'eu-west-1'))();
    expect(await sut.verify(elsewhere, at(1))).toBe('invalid');
  });
});
