import { type DeviceHealth, deviceHealthSchema, type ProbeView, probeViewSchema } from '@cm/contracts';
import { render, screen, within } from '@testing-library/react';
import { HealthPanel } from './health-panel';

const HOUR = 3_600_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();
// Shapes as the server answers them: checked against the contract, so the panel is tested on them.
const pjlink: ProbeView = probeViewSchema.parse({ type: 'pjlink', secretsSet: [] });
const reading = (over: Partial<DeviceHealth>): DeviceHealth =>
  deviceHealthSchema.parse({ state: 'ok', reasons: [], checkedAt: ago(5 * 60_000), ...over });

/** The panel's rows, label and value, as a person reads them. */
const rows = () =>
  within(screen.getByTestId('health-panel'))
    .getAllByRole('definition')
    .map((dd) => [dd.previousElementSibling?.textContent, dd.textContent]);

describe(HealthPanel.name, () => {
  it('shows a projector with a lamp near its rated life: state in words, reasons, bar and forecast', () => {
    const health = reading({
      state: 'warning',
      reasons: ['Lamp 1 at 2,950 of 3,000 hours', 'Filter warning'],
      power: 'on',
      lamps: [{ hours: 2950, on: true, ratedHours: 3000 }],
      lampReplaceBy: '2027-03-12',
      filterHours: 1200,
      input: 'HDMI 1',
      model: 'EB-L1500U',
      serial: 'X4KD001234',
      firmware: '1.05',
      rebootedAt: ago(3 * HOUR),
    });
    render(<HealthPanel probe={pjlink} health={health} />);
    expect(screen.getByTestId('health-badge')).toHaveTextContent('Warning');
    const reasons = within(screen.getByRole('list', { name: 'Reasons' })).getAllByRole('listitem');
    expect(reasons.map((r) => r.textContent)).toEqual(['Lamp 1 at 2,950 of 3,000 hours', 'Filter warning']);
    expect(screen.getByRole('progressbar', { name: 'Lamp life used' })).toHaveAttribute(
      'aria-valuetext',
      '2,950 of 3,000 hours',
    );
    expect(rows()).toEqual([
      ['Power', 'On'],
      ['Lamp', '2,950 of 3,000 hours, onReplace by 12 Mar 2027'],
      ['Filter', '1,200 hours'],
      ['Input', 'HDMI 1'],
      ['Model', 'EB-L1500U'],
      ['Serial', 'X4KD001234'],
      ['Firmware', '1.05'],
      ['Restarted', '3 h ago'],
    ]);
    expect(screen.getByText(/^PJLink, read/)).toHaveTextContent('PJLink, read 5 min ago');
  });

  it('shows lamp hours alone when the rated life is unknown, and no restart older than a day', () => {
    const health = reading({
      lamps: [
        { hours: 1234, on: false },
        { hours: 80, on: true },
      ],
      rebootedAt: ago(25 * HOUR),
    });
    render(<HealthPanel probe={pjlink} health={health} />);
    expect(screen.getByTestId('health-badge')).toHaveTextContent('OK');
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Reasons' })).not.toBeInTheDocument();
    expect(rows()).toEqual([
      ['Lamp 1', '1,234 hours, off'],
      ['Lamp 2', '80 hours, on'],
    ]);
  });

  it('says an error and an unknown state in words', () => {
    const { rerender } = render(
      <HealthPanel probe={pjlink} health={reading({ state: 'error', reasons: ['Wrong PJLink password'] })} />,
    );
    expect(screen.getByTestId('health-badge')).toHaveTextContent('Error');
    expect(screen.getByText('Wrong PJLink password')).toBeInTheDocument();
    rerender(<HealthPanel probe={pjlink} health={reading({ state: 'unknown' })} />);
    expect(screen.getByTestId('health-badge')).toHaveTextContent('Unknown');
  });

  it('says a probe has not answered yet, and shows nothing for equipment only pinged', () => {
    const { container, rerender } = render(<HealthPanel probe={pjlink} health={null} />);
    expect(screen.getByText(/^Not read yet/)).toBeInTheDocument();
    rerender(<HealthPanel probe={probeViewSchema.parse({ type: 'icmp', secretsSet: [] })} health={null} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<HealthPanel health={undefined} />);
    expect(container).toBeEmptyDOMElement();
  });
});
