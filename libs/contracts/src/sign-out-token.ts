// Without zod: the web app's signed-in shell reads it on its first screen (issue 37's budget).

/**
 * A signed-in browser gets its session's sign-out token in this cookie, which pages of ours can
 * read; GET /api/logout signs out only when it carries the token (a link or an image elsewhere
 * cannot know it).
 */
export const signOutToken = { cookie: 'cm.signout', query: 'token' } as const;
