import { LineSplitter, PjlinkStopped } from './pjlink-session';

describe(LineSplitter.name, () => {
  it('joins an answer split across packets and parts several answers in one', () => {
    const sut = new LineSplitter();
    expect(sut.push(Buffer.from('PJLINK 0\r%1PO'))).toEqual(['PJLINK 0']);
    expect(sut.push(Buffer.from('WR=1\r%1ERST=000000\r\n%1LA'))).toEqual(['%1POWR=1', '%1ERST=000000']);
    expect(sut.push(Buffer.from('MP=10 1\r'))).toEqual(['%1LAMP=10 1']);
  });

  it('keeps a name whose letters are split between packets', () => {
    const sut = new LineSplitter();
    const answer = Buffer.from('%1NAME=Hörsaal\r');
    const cut = answer.indexOf(0xb6); // the second byte of ö
    expect(sut.push(answer.subarray(0, cut))).toEqual([]);
    expect(sut.push(answer.subarray(cut))).toEqual(['%1NAME=Hörsaal']);
  });

  it('stops at a line far longer than PJLink allows', () => {
    const sut = new LineSplitter();
    expect(() => sut.push(Buffer.alloc(600, 'A'))).toThrow(PjlinkStopped);
  });
});
