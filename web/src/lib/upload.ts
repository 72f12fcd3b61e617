import { type ErrorBody, IDEMPOTENCY_KEY_HEADER, MAX_UPLOAD_BYTES, MAX_UPLOAD_FILES } from '@cm/contracts';
import { apiRoutes } from './api-routes';
import { ApiError, apiJson, fetchText, NetworkError, uploadDeadlineMs } from './api';
import { replyOf } from './reply';
import { checkReply } from './reply-check';
import { bodies, nodes } from './reply-checks';

/**
 * Spec section 4, building photo: the file is posted first; the answered url becomes imageUrl.
 * With an Idempotency-Key (an upload kept on the phone), a resend answers the first one's url.
 */
export async function uploadFile(file: File, idempotencyKey?: string): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const headers: Record<string, string> = idempotencyKey ? { [IDEMPOTENCY_KEY_HEADER]: idempotencyKey } : {};
  const { res, text } = await fetchText(
    apiRoutes.upload.path,
    { method: apiRoutes.upload.method, body: form, credentials: 'include', headers },
    uploadDeadlineMs(file.size),
  );
  if (!res.ok) throw new ApiError(res.status, text, res.statusText);
  return (await replyOf(apiRoutes.upload, text)).url;
}

/**
 * Spec section 4, photo upload flow: request an upload URL, send the file directly to it,
 * register it, and answer its stored object path (the caller attaches it to the room).
 *
 * The direct PUT goes through Uppy with the spec's limits (one file, images only, `maxBytes`,
 * started by the caller rather than automatically), signing with our own presigned URL instead
 * of a companion server. Uppy is loaded on the first upload: most screens never upload.
 */
export async function uploadImageToStore(
  file: File,
  onProgress: (fraction: number) => void = () => {},
  maxBytes: number = MAX_UPLOAD_BYTES,
  cancel?: AbortSignal,
): Promise<string> {
  const [{ default: Uppy }, { default: AwsS3 }] = await Promise.all([
    import('@uppy/core'),
    import('@uppy/aws-s3'),
  ]);
  let uploadURL: string | null = null;
  // Uppy keeps only the text of a failed signing ("500: {…}"); the error itself says more.
  let signFailure: unknown;
  const uppy = new Uppy({
    autoProceed: false,
    // Its default logs each failure to the console; the dialog says what failed, in words.
    logger: quiet,
    restrictions: {
      maxNumberOfFiles: MAX_UPLOAD_FILES,
      maxFileSize: maxBytes,
      allowedFileTypes: ['image/*'],
    },
  }).use(AwsS3, {
    shouldUseMultipart: false,
    // The size is signed into the URL: the store takes this file's bytes and no more.
    getUploadParameters: async () => {
      try {
        uploadURL = (
          await apiJson(apiRoutes.createUploadUrl, undefined, { size: file.size, contentType: file.type })
        ).uploadURL;
      } catch (error) {
        signFailure = error;
        throw error;
      }
      return { method: 'PUT', url: uploadURL };
    },
  });
  try {
    // Throws Uppy's restriction message when the file breaks a limit.
    uppy.addFile({ name: file.name, type: file.type, data: file, source: 'Local' });
    uppy.on('upload-progress', (_file, progress) => {
      if (progress.bytesTotal) onProgress((progress.bytesUploaded ?? 0) / progress.bytesTotal);
    });
    // Uppy keeps only "Non 2xx"; the gateway's /store says why in the body it answered, which
    // the error carries as the request it came from.
    let explained: string | undefined;
    uppy.on('upload-error', (_file, error) => {
      explained = explanationOf(
        (error as { source?: { responseText?: unknown } } | undefined)?.source?.responseText,
      );
    });
    // Uppy sets no deadline of its own on the PUT; destroying it below aborts a stalled one, or
    // one the person cancelled.
    const result = await withDeadline(
      cancellable(uppy.upload(), cancel),
      uploadDeadlineMs(file.size),
      new NetworkError('timeout').message,
    );
    const failed = result?.failed?.[0];
    if (signFailure) throw signFailure;
    // Uppy's own words for a failed upload ("Non 2xx") tell a person nothing.
    if (failed || !uploadURL) throw uploadFailure(explained);
  } finally {
    uppy.destroy();
  }
  const registered = await apiJson(apiRoutes.registerRoomImage, undefined, { roomImageURL: uploadURL });
  return registered.objectPath;
}

const quiet = { debug: () => {}, warn: () => {}, error: () => {} };

/** Raised when the person cancels an upload: nothing to tell them. */
export class UploadCancelled extends Error {
  constructor() {
    super('The upload was cancelled.');
    this.name = 'UploadCancelled';
  }
}

function cancellable<T>(work: Promise<T>, cancel: AbortSignal | undefined): Promise<T> {
  if (!cancel) return work;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      if (cancel.aborted) reject(new UploadCancelled());
      cancel.addEventListener('abort', () => reject(new UploadCancelled()), { once: true });
    }),
  ]);
}

/** Settles like `work`, or rejects with `message` once `ms` have passed without it settling. */
export function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, late]).finally(() => clearTimeout(timer));
}

/** The message of one of our error bodies (`{ code, message }` as JSON), else nothing. */
export function explanationOf(body: unknown): string | undefined {
  if (typeof body !== 'string') return undefined;
  try {
    // Checked without zod: the outbox, loaded with the first screen, sends uploads through here.
    const parsed = checkReply(nodes, bodies.errorBody, JSON.parse(body));
    return parsed.success ? (parsed.data as ErrorBody).message : undefined;
  } catch {
    return undefined;
  }
}

/** Why the store refused the upload, in its words, or the words for an upload that did not reach it. */
function uploadFailure(explained: string | undefined): Error {
  return new Error(explained ?? 'The upload could not reach the file store. Try again.');
}

/**
 * Why an upload failed, as a sentence a person can act on: never a status code or the raw body
 * of an answer.
 */
export function uploadProblem(error: unknown): string {
  if (error instanceof NetworkError) return `The image was not uploaded. ${error.message}`;
  if (error instanceof ApiError) {
    if (error.status === 401) return 'Your session has ended. Sign in again, then upload the image.';
    if (error.status >= 500)
      return 'The image was not uploaded: the server could not store it. Try again in a moment; if it keeps failing, tell your administrator.';
    return explanationOf(error.body) ?? 'The image was not uploaded. Try again.';
  }
  // Uppy's own reasons (a file over the limit) read well; an answer's raw text does not.
  if (error instanceof Error && error.message && !/[{<]|^\d{3}\b/.test(error.message)) return error.message;
  return 'The image was not uploaded. Check the connection and try again.';
}

/** Why a picked file cannot be uploaded, or null when it can. */
export function refuseFile(file: File, maxBytes: number): string | null {
  if (!file.type.startsWith('image/')) return `"${file.name}" is not an image. Choose a photo or picture.`;
  if (file.size > maxBytes)
    return `"${file.name}" is ${formatBytes(file.size)}; the limit is ${formatBytes(maxBytes)}. Choose a smaller image.`;
  return null;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
