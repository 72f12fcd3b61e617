/** What a save answers when it was kept in the outbox rather than sent. */
export const QUEUED = Symbol('queued');
export type Queued = typeof QUEUED;
export const isQueued = (value: unknown): value is Queued => value === QUEUED;

/** What an edit answers when the record changed elsewhere meanwhile: the outbox shows both. */
export const CONFLICTED = Symbol('conflicted');
export type Conflicted = typeof CONFLICTED;
export const isConflicted = (value: unknown): value is Conflicted => value === CONFLICTED;
