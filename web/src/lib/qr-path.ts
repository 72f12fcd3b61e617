/** Modules of white space a reader needs around a code (the QR standard asks for four). */
export const QUIET_ZONE = 4;

/**
 * One SVG path of a code's dark modules, drawn from the top-left of its quiet zone: a single
 * path keeps a code of a few hundred modules one element, crisp at any size and on paper.
 */
export function qrPath(modules: readonly (readonly boolean[])[]): { d: string; size: number } {
  const parts: string[] = [];
  modules.forEach((row, y) =>
    row.forEach((dark, x) => {
      if (dark) parts.push(`M${x + QUIET_ZONE} ${y + QUIET_ZONE}h1v1h-1z`);
    }),
  );
  return { d: parts.join(''), size: modules.length + 2 * QUIET_ZONE };
}
