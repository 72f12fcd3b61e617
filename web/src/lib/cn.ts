/** Joins class names, skipping the falsy ones (`cond && 'class'`). */
export const cn = (...classes: (string | false | null | undefined)[]): string =>
  classes.filter(Boolean).join(' ');
