import { csvCell, csvCellValue } from './csv';

/** A cell as a spreadsheet reads it: RFC 4180 quotes taken off. */
const unquoted = (written: string) =>
  written.startsWith('"') ? written.slice(1, -1).replace(/""/g, '"') : written;

describe(csvCell.name, () => {
  it.each([
    ['fullwidth equals', '＝HYPERLINK("http://evil.example","x")'],
    ['fullwidth plus', '＋1+1'],
    ['fullwidth minus', '－1+1'],
    ['fullwidth at', '＠SUM(A1)'],
    ['small equals', '﹦1+1'],
    ['small plus', '﹢1+1'],
    ['small hyphen-minus', '﹣1+1'],
    ['small at', '﹫SUM(A1)'],
    ['minus sign', '−1+1'],
    ['en dash', '–1+1'],
    ['equals with a combining mark (NFKC composes it to ≠)', '=\u0338SUM(A1)'],
    ['equals', '=SUM(A1)'],
    ['tab', '\tindented'],
  ])('neutralises a cell starting with the %s, and reads it back as typed', (_name, value) => {
    const written = unquoted(csvCell(value));
    expect(written).toBe(`'${value}`);
    expect(csvCellValue(written)).toBe(value);
  });

  it.each(['Ｒoom 1', '１０１', 'plain', '', "'quoted already", '≠ not a formula'])(
    'leaves %j as it is',
    (value) => {
      expect(unquoted(csvCell(value))).toBe(value);
      expect(csvCellValue(unquoted(csvCell(value)))).toBe(value);
    },
  );
});
