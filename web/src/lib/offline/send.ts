import { type Room, type StaleWriteBody } from '@cm/contracts';
import { apiRoutes } from '../api-routes';
import {
  ApiError,
  apiCreate,
  apiVersionedDelete,
  apiVersionedEdit,
  errorMessage,
  NetworkError,
} from '../api';
import { checkReply } from '../reply-check';
import { bodies, nodes } from '../reply-checks';
import { uploadFile } from '../upload';
import { type KeptFile, type OutboxEntry, type RoomPictureField, type SendOutcome } from './outbox';

type Body = never;

/** Sends one entry as its route, with its Idempotency-Key and (an edit) its If-Match. */
export function callEntry(
  entry: Pick<OutboxEntry, 'key' | 'route' | 'params' | 'body' | 'ifVersion' | 'file'>,
): Promise<{ version?: number }> {
  const { key, params, ifVersion } = entry;
  const id = params as { id: string };
  const body = entry.body as Body;
  switch (entry.route) {
    case 'createBuilding':
      return withPhoto(entry).then((photo) => apiCreate(apiRoutes.createBuilding, key, undefined, photo));
    case 'createRoom':
      return apiCreate(apiRoutes.createRoom, key, params as { buildingId: string }, body);
    case 'createEquipment':
      return apiCreate(apiRoutes.createEquipment, key, params as { roomId: string }, body);
    case 'updateBuilding':
      return withPhoto(entry).then((photo) =>
        apiVersionedEdit(apiRoutes.updateBuilding, key, ifVersion, params as { id: string }, photo),
      );
    case 'updateRoom':
      return apiVersionedEdit(apiRoutes.updateRoom, key, ifVersion, params as { id: string }, body);
    case 'updateEquipment':
      return apiVersionedEdit(apiRoutes.updateEquipment, key, ifVersion, params as { id: string }, body);
    case 'deleteBuilding':
      return gone(apiVersionedDelete(apiRoutes.deleteBuilding, ifVersion, id));
    case 'deleteRoom':
      return gone(apiVersionedDelete(apiRoutes.deleteRoom, ifVersion, id));
    case 'deleteEquipment':
      return gone(apiVersionedDelete(apiRoutes.deleteEquipment, ifVersion, id));
    case 'uploadRoomPicture':
      return uploadToRoom(entry);
    case 'removeRoomPicture':
      return setRoomPicture(entry, null);
  }
}

/** A delete of what is gone already (deleted elsewhere, or by this delete's lost answer) is done. */
async function gone(call: Promise<unknown>): Promise<{ version?: number }> {
  try {
    await call;
  } catch (error) {
    if (!(error instanceof ApiError && error.status === 404)) throw error;
  }
  return {};
}

/** A kept file sent under the entry's key: a resend answers the first one's url, storing it once. */
const sendFile = (key: string, file: KeptFile) =>
  uploadFile(new File([file.blob], file.name, { type: file.type }), key);

/**
 * A building's save with the photo chosen offline: the photo first, under the entry's key (each
 * route keeps its own), then the save with its url. A photo the server refuses refuses the save,
 * which goes back to its form with the reason.
 */
async function withPhoto(entry: Pick<OutboxEntry, 'key' | 'body' | 'file'>): Promise<Body> {
  if (!entry.file) return entry.body as Body;
  return { ...entry.body, imageUrl: await sendFile(entry.key, entry.file) } as Body;
}

/**
 * An upload kept on the phone: the file, then the room's picture field set to it, both under the
 * entry's key (each route keeps its own), so a resend stores the file and sets the field once. A
 * picture stored already (uploaded online, its url in the body) is only set.
 */
async function uploadToRoom(entry: Pick<OutboxEntry, 'key' | 'params' | 'body' | 'file' | 'ifVersion'>) {
  const { key, file } = entry;
  const stored = entry.body[entry.params.field];
  if (!file && typeof stored !== 'string')
    throw new Error('The file of this upload was not kept on this phone. Upload it again.');
  return setRoomPicture(entry, file ? await sendFile(key, file) : (stored as string));
}

/**
 * Sets one picture field of a room (null removes the picture), and only that field, on the version
 * the person saw (If-Match): a room changed meanwhile is a conflict, as with any edit. An upload
 * kept before uploads carried a version goes on any.
 */
function setRoomPicture(
  entry: Pick<OutboxEntry, 'key' | 'params' | 'ifVersion'>,
  url: string | null,
): Promise<Room> {
  const { key, params, ifVersion } = entry;
  const field = params.field as RoomPictureField;
  return apiVersionedEdit(apiRoutes.updateRoom, key, ifVersion, { id: params.id }, { [field]: url });
}

/**
 * How the server took an entry: no answer, a 5xx or a 429 are worth trying again later; a 412
 * is a conflict with the record as it is now; a 401 is an ended session; any other 4xx is a
 * refusal, with the server's reason.
 */
export async function sendEntry(entry: OutboxEntry): Promise<SendOutcome> {
  try {
    const saved = await callEntry(entry);
    return { kind: 'sent', version: saved.version };
  } catch (error) {
    return outcomeOf(error);
  }
}

/** A failed call's outcome for the outbox. */
export function outcomeOf(error: unknown): SendOutcome {
  if (error instanceof NetworkError) return { kind: 'unreachable' };
  if (!(error instanceof ApiError)) return { kind: 'refused', reason: errorMessage(error) };
  if (error.status === 401) return { kind: 'signed-out' };
  if (error.status === 412) {
    // Checked without zod, whose code the outbox (loaded with the first screen) would bring.
    const stale = checkReply(nodes, bodies.staleWriteBody, parseJson(error.body));
    if (stale.success) {
      const { message, current } = stale.data as StaleWriteBody;
      return { kind: 'conflict', reason: message, current };
    }
  }
  if (error.status >= 500 || error.status === 429 || error.status === 408) return { kind: 'unreachable' };
  return { kind: 'refused', reason: errorMessage(error) };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
