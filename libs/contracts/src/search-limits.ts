// Without zod: the web app's first screens read it (issue 37's budget).

/**
 * Shortest search text: the index serves fragments of three characters or more (trigrams); a
 * shorter one would read every record of a large campus.
 */
export const SEARCH_MIN_LENGTH = 3;
export const SEARCH_MAX_LENGTH = 100;
/** Results of each kind in one answer; `more` says when there are others. */
export const SEARCH_LIMIT = 20;
