import { faultDecision, type FaultStep } from './fault-rules';

const step = (over: Partial<FaultStep>): FaultStep => ({
  state: 'ok',
  previousState: 'ok',
  authFailedNow: false,
  alerted: false,
  ...over,
});

describe(faultDecision.name, () => {
  it('tells of health getting worse, and of a first refused password', () => {
    expect(faultDecision(step({ state: 'warning' }))).toBe('fault.opened');
    expect(faultDecision(step({ state: 'error', previousState: 'warning' }))).toBe('fault.opened');
    expect(faultDecision(step({ state: 'error', previousState: null }))).toBe('fault.opened');
    expect(faultDecision(step({ state: 'error', previousState: 'error', authFailedNow: true }))).toBe(
      'fault.opened',
    );
  });

  it('keeps quiet while a fault stays or eases, and tells of its end only after telling of it', () => {
    expect(faultDecision(step({ state: 'error', previousState: 'error', alerted: true }))).toBeNull();
    expect(faultDecision(step({ state: 'warning', previousState: 'error', alerted: true }))).toBeNull();
    expect(faultDecision(step({ state: 'ok', previousState: 'error', alerted: true }))).toBe(
      'fault.recovered',
    );
    expect(faultDecision(step({ state: 'ok', previousState: 'error', alerted: false }))).toBeNull();
  });
});
