import { summarize } from './status';

const up = (address: string, rttMs = 1) => ({ address, alive: true, rttMs });
const down = (address: string) => ({ address, alive: false, rttMs: null });

describe(summarize.name, () => {
  it('calls a single address active when it answers and inactive when it does not', () => {
    expect(summarize([up('10.0.0.1', 2.5)])).toEqual({ status: 'active', rttMs: 2.5 });
    expect(summarize([down('10.0.0.1')])).toEqual({ status: 'inactive', rttMs: null });
  });

  it('calls a range active only when every address answers, partial when some do', () => {
    expect(summarize([up('10.0.0.1', 1), up('10.0.0.2', 3)])).toEqual({ status: 'active', rttMs: 2 });
    expect(summarize([up('10.0.0.1', 4), down('10.0.0.2'), down('10.0.0.3')])).toEqual({
      status: 'partial',
      rttMs: 4,
    });
    expect(summarize([down('10.0.0.1'), down('10.0.0.2')])).toEqual({ status: 'inactive', rttMs: null });
  });
});
