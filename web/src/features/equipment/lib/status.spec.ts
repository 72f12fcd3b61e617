import { statusIndicator } from './status';

describe(statusIndicator.name, () => {
  it.each([
    ['active', 'Active', 'green'],
    ['inactive', 'Inactive', 'red'],
    ['maintenance', 'Maintenance', 'yellow'],
    ['partial', 'Partial', 'yellow'],
  ])('shows %s as %s in %s', (status, label, tone) => {
    expect(statusIndicator(status)).toEqual({ label, tone });
  });

  it.each(['online', 'offline', '', 'ACTIVE'])('shows anything else (%j) as a grey "Unknown"', (status) => {
    expect(statusIndicator(status)).toEqual({ label: 'Unknown', tone: 'grey' });
  });
});
