import {
  ErrorCode,
  keyOfObjectPath,
  messages,
  pictureFieldLabels,
  pictureMessages,
  type PictureField,
} from '@cm/contracts';
import { AppError, RpcClient } from '@cm/platform';
import { Injectable } from '@nestjs/common';

type PictureValues = Partial<Record<PictureField, string | null>>;

/**
 * The contract already holds picture fields to our object paths; only media knows whether such a
 * path names an object it registered. Without asking, a path of an upload that was refused,
 * never finished or never existed would be stored and shown as a broken picture.
 */
@Injectable()
export class RegisteredPictures {
  constructor(private readonly rpc: RpcClient) {}

  /** Refuses (400 naming each field) picture paths that name no registered object. */
  async check(values: PictureValues): Promise<void> {
    const named = (Object.keys(pictureFieldLabels) as PictureField[]).flatMap((field) => {
      const key = keyOfObjectPath(values[field] ?? '');
      return key ? [{ field, key }] : [];
    });
    if (named.length === 0) return;
    const { registered } = await this.rpc.send(messages.media.findRegistered, {
      keys: [...new Set(named.map((n) => n.key))],
    });
    const errors = named
      .filter(({ key }) => !registered.includes(key))
      .map(({ field }) => ({
        path: field,
        message: pictureMessages.notRegistered(pictureFieldLabels[field]),
      }));
    if (errors.length) {
      throw new AppError(ErrorCode.VALIDATION_FAILED, errors.map((e) => e.message).join(' '), errors);
    }
  }
}
