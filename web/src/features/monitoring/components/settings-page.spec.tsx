import { screen, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { intervalLabel, SettingsPage } from './settings-page';

describe(SettingsPage.name, () => {
  it('shows the interval in seconds, or N/A without one', () => {
    expect(intervalLabel(30_000)).toBe('30 seconds');
    expect(intervalLabel(2500)).toBe('2.5 seconds');
    expect(intervalLabel(null)).toBe('N/A');
  });

  it('opens on Monitoring, starts monitoring and says so', async () => {
    const calls = fakeFetch(
      { status: 200, body: { isRunning: false, interval: null } },
      { status: 200, body: { isRunning: true, interval: 30_000 } },
      { status: 200, body: { isRunning: true, interval: 30_000 } },
    );
    renderWithApp(<SettingsPage />);
    expect(screen.getByRole('tab', { name: 'Monitoring' })).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByText('Stopped')).toBeInTheDocument();
    expect(screen.getByTestId('monitoring-interval')).toHaveTextContent('N/A');
    expect(screen.getByRole('button', { name: 'Stop Monitoring' })).toBeDisabled();
    await userEvent.click(screen.getByRole('button', { name: 'Start Monitoring' }));
    expect(await screen.findByText('Equipment monitoring started')).toBeInTheDocument();
    expect(await screen.findByText('Running')).toBeInTheDocument();
    expect(screen.getByTestId('monitoring-interval')).toHaveTextContent('30 seconds');
    expect(calls[1]).toMatchObject({ url: '/api/monitoring/start', init: { method: 'POST' } });
  });

  it('leads from Monitoring to the Device Fleet screen', async () => {
    fakeFetch({ status: 200, body: { isRunning: false, interval: null } });
    renderWithApp(<SettingsPage />);
    expect(screen.getByRole('link', { name: /^Device Fleet/ })).toHaveAttribute('href', '/settings/fleet');
    expect(await screen.findByText('Stopped')).toBeInTheDocument();
  });

  it('says a failed check failed, in the destructive style', async () => {
    fakeFetch(
      { status: 200, body: { isRunning: false, interval: 30_000 } },
      { status: 504, body: { code: 'MONITOR.CHECK_INCOMPLETE', message: 'The check goes on' } },
      { status: 200, body: { isRunning: false, interval: 30_000 } },
    );
    renderWithApp(<SettingsPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Check Now' }));
    const toast = (await screen.findByText('Failed to check equipment')).closest('[data-slot="toast"]');
    expect(toast).toHaveAttribute('data-variant', 'destructive');
    expect(within(toast as HTMLElement).getByText('Error')).toBeInTheDocument();
  });

  it('has a Notifications tab only when given one (administrators)', async () => {
    fakeFetch({ status: 200, body: { isRunning: false, interval: null } });
    const { unmount } = renderWithApp(<SettingsPage />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Monitoring', 'About']);
    unmount();
    fakeFetch({ status: 200, body: { isRunning: false, interval: null } });
    renderWithApp(<SettingsPage notifications={<p>Channels here</p>} />);
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual([
      'Monitoring',
      'Notifications',
      'About',
    ]);
    await userEvent.click(screen.getByRole('tab', { name: 'Notifications' }));
    expect(await screen.findByText('Channels here')).toBeInTheDocument();
  });
});
