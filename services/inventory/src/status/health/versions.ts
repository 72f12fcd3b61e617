/**
 * Compares firmware versions number by number ("1.10" after "1.9", "2.0" after "1.99"); text
 * between the numbers breaks ties ("1.2b" after "1.2a"), and a version that has more parts than
 * another that it starts with is the later ("1.2.1" after "1.2").
 */
export function compareVersions(a: string, b: string): number {
  const pa = partsOf(a);
  const pb = partsOf(b);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const [x, y] = [pa[i], pb[i]];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order =
      typeof x === 'number' && typeof y === 'number'
        ? x - y
        : typeof x === 'number'
          ? 1
          : typeof y === 'number'
            ? -1
            : x.localeCompare(y);
    if (order !== 0) return Math.sign(order);
  }
  return 0;
}

/** The numbers and the words of a version, in order, separators and a leading "v" dropped. */
function partsOf(version: string): (number | string)[] {
  return (
    version
      .trim()
      .replace(/^v(?=\d)/i, '')
      .match(/\d+|[^\d\s._-]+/g) ?? []
  ).map((p) => (/^\d+$/.test(p) ? Number(p) : p.toLowerCase()));
}
