import { z } from 'zod';

/** Every record id is a server-generated UUID. */
export const idSchema = z.uuid({ message: 'Must be a valid id' });
export type Id = z.infer<typeof idSchema>;

export const idParamsSchema = z.object({ id: idSchema });

/** What every delete answers once the record is gone. */
export const deletedSchema = z.object({ deleted: z.literal(true) });
export const deleted = { deleted: true } as const;

/** Bounded free text: the database column widths follow these limits. */
export const limits = {
  name: 120,
  shortText: 120,
  description: 2000,
  notes: 4000,
  url: 2048,
} as const;

const loneSurrogate = /\p{Cs}/u;

/**
 * Line breaks, tabs and the other control characters, and the direction overrides and isolates
 * (U+202A–U+202E, U+2066–U+2069) that make text display in another order than it is stored. In a
 * name they forge extra lines in logs, e-mail subjects and CSV cells, or make one name look like
 * another. A line break or tab becomes a space (a pasted "Room\n101" stays two words); the rest
 * go. NUL is refused instead (below), as before.
 */
const lineBreaks = /[\t\n\v\f\r\u0085\u2028\u2029]+/g;
const hiddenControls = /[\p{Cc}\u202a-\u202e\u2066-\u2069]/gu;
/** In text of several lines (notes, descriptions) the line breaks stay, as \n, and tabs stay. */
const controlsButLines = /[^\P{Cc}\t\n]|[\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

/** One line of text, as every single-line field stores it. */
export const singleLine = (text: string) => text.replace(lineBreaks, ' ').replace(hiddenControls, '');
/** Text of several lines: \r\n and \r become \n, other controls go. */
export const multiLine = (text: string) => text.replace(/\r\n?/g, '\n').replace(controlsButLines, '');

export interface TextOptions {
  /** Keeps line breaks (notes, descriptions); otherwise they become spaces. */
  multiline?: boolean;
}

/**
 * Text PostgreSQL can store: it refuses NUL in text, and UTF-8 has no lone surrogate halves (the
 * driver would quietly store U+FFFD instead). Refused here so the answer is a 400 naming the field.
 * Other control characters are taken out (see `singleLine`), here once for every service and form.
 */
export const storableText = (
  label: string,
  typeMessage = `${label} must be text`,
  { multiline = false }: TextOptions = {},
) =>
  z
    .string({ message: typeMessage })
    .refine((v) => !v.includes('\u0000'), { message: `${label} must not contain NUL characters` })
    .refine((v) => !loneSurrogate.test(v), {
      message: `${label} must be valid Unicode text (it holds half of a surrogate pair)`,
    })
    .overwrite(multiline ? multiLine : singleLine);

/** Optional text that arrives as "" from a form field and is stored as null. */
export const optionalText = (max: number, label: string, options: TextOptions = {}) =>
  storableText(label, undefined, options)
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` })
    .nullish()
    .transform((v) => (v ? v : null));

export const requiredText = (
  max: number,
  label: string,
  requiredMessage = `${label} is required`,
  options: TextOptions = {},
) =>
  storableText(label, requiredMessage, options)
    .trim()
    .min(1, { message: requiredMessage })
    .max(max, { message: `${label} must be at most ${max} characters` });

/** The spec stores flags as integers 0 and 1. */
export const flagSchema = z.union([z.literal(0), z.literal(1)], { message: 'Must be 0 or 1' });

export const timestampSchema = z.iso.datetime({ offset: true });

/** One query-string parameter: given twice it arrives as an array, a mistake worth naming. */
export const queryValue = (label: string) =>
  z.string({
    error: (issue) => (Array.isArray(issue.input) ? `${label} must be given once` : `${label} must be text`),
  });

/** A query-string date and time. */
export const queryInstant = (label: string) =>
  queryValue(label).pipe(
    z.iso.datetime({
      offset: true,
      message: `${label} must be an ISO date and time, such as 2026-11-24T08:00:00Z`,
    }),
  );
