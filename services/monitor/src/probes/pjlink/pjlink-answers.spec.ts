import { answerProblem, readingFrom } from './pjlink-answers';

describe(answerProblem.name, () => {
  it('accepts the device error codes and refuses values outside the specification', () => {
    expect(answerProblem('POWR', 'ERR3')).toBeUndefined();
    expect(answerProblem('POWR', '1')).toBeUndefined();
    expect(answerProblem('POWR', '7')).toBe('Unreadable answer to POWR: "7"');
    expect(answerProblem('ERST', '00000')).toBe('Unreadable answer to ERST: "00000"');
    expect(answerProblem('LAMP', '120 1 40')).toBe('Unreadable answer to LAMP: "120 1 40"');
    expect(answerProblem('NAME', 'anything at all')).toBeUndefined();
  });
});

describe(readingFrom.name, () => {
  it('names every part the error status reports, and keeps the maker out of a model that has it', () => {
    expect(readingFrom({ ERST: '120021', INF1: 'Panasonic', INF2: 'PANASONIC PT-VMZ60' })).toMatchObject({
      findings: [
        { state: 'warning', reason: 'Fan warning' },
        { state: 'error', reason: 'Lamp error' },
        { state: 'error', reason: 'Filter error' },
        { state: 'warning', reason: 'Device warning' },
      ],
      model: 'PANASONIC PT-VMZ60',
    });
  });
});
