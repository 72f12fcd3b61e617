/**
 * Whether a text is an id: idSchema's test (zod's UUID pattern, ids.spec.ts holds them together)
 * without zod, which the web app's first screen does not load (issue 37's budget).
 */
const idPattern =
  /^([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[1-8][0-9a-fA-F]{3}-[89abAB][0-9a-fA-F]{3}-[0-9a-fA-F]{12}|00000000-0000-0000-0000-000000000000|ffffffff-ffff-ffff-ffff-ffffffffffff)$/;

export const isId = (text: string | undefined): boolean => text !== undefined && idPattern.test(text);
