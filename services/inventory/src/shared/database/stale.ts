import { ErrorCode } from '@cm/contracts';
import { AppError } from '@cm/platform';

/**
 * What a person reads when their edit was made on a version the record has since left (somebody
 * else saved it meanwhile); the gateway adds the record as it is now.
 */
export type VersionedKind = 'building' | 'room' | 'equipment';

export function staleVersion(kind: VersionedKind, id: string, ifVersion: number): AppError {
  return new AppError(
    ErrorCode.STALE_VERSION,
    `This ${kind} was changed by someone else after version ${ifVersion} that your edit was made on (id ${id}). Compare both versions and choose what to keep.`,
  );
}
