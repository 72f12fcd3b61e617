const MAX_TAGS = 3;

/** Spec section 9: up to three badges derived from the room type. */
export function roomTags(type: string): string[] {
  const lower = type.toLowerCase();
  const tags: string[] = [];
  if (lower.includes('computer')) tags.push('Computers');
  if (lower.includes('lab')) tags.push('Lab Equipment');
  return tags.slice(0, MAX_TAGS);
}
