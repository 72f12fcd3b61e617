import { objectPathResultSchema, uploadResultSchema, uploadUrlResultSchema } from '@cm/contracts';
import { ApiError, apiRequest, throwIfNotOk } from './api';

// A file goes to the server or the store in one request: generous, but a stalled upload ends.
const UPLOAD_TIMEOUT_MS = 5 * 60_000;

/** Spec section 4, building photo: the file is posted first; the answered url becomes imageUrl. */
export async function uploadFile(file: File): Promise<string> {
  const form = new FormData();
  form.append('file', file);
  const res = await fetch('/api/upload', {
    method: 'POST',
    body: form,
    credentials: 'include',
    signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS),
  });
  await throwIfNotOk(res);
  return uploadResultSchema.parse(await res.json()).url;
}

/** PUT to a presigned URL with progress (fetch cannot report upload progress). */
function putWithProgress(url: string, file: File, onProgress: (fraction: number) => void): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    if (file.type) xhr.setRequestHeader('Content-Type', file.type);
    xhr.upload.onprogress = (e) => e.lengthComputable && onProgress(e.loaded / e.total);
    xhr.onload = () =>
      xhr.status >= 200 && xhr.status < 300
        ? resolve()
        : reject(new ApiError(xhr.status, xhr.responseText, xhr.statusText || 'Upload refused'));
    xhr.onerror = () => reject(new Error('The upload could not reach the file store. Try again.'));
    xhr.ontimeout = () => reject(new Error('The upload took too long and was stopped. Try again.'));
    xhr.send(file);
  });
}

/**
 * Spec section 4, photo upload flow: request an upload URL, send the file directly to it,
 * register it, and answer its stored object path (the caller attaches it to the room).
 */
export async function uploadImageToStore(
  file: File,
  onProgress: (fraction: number) => void = () => {},
): Promise<string> {
  const { uploadURL } = uploadUrlResultSchema.parse(
    await (await apiRequest('POST', '/api/objects/upload')).json(),
  );
  await putWithProgress(uploadURL, file, onProgress);
  const registered = await apiRequest('PUT', '/api/room-images', { roomImageURL: uploadURL });
  return objectPathResultSchema.parse(await registered.json()).objectPath;
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
