import { type Fleet, fleetSchema } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { FleetPage } from './fleet-page';

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const place = { roomId: id(100), roomName: '204', buildingName: 'Science Hall' };
// As the server answers it: checked against the contract.
const fleet: Fleet = fleetSchema.parse({
  models: [
    {
      model: 'EB-L1500U',
      newestFirmware: '1.10',
      versions: [
        { firmware: '1.10', devices: 3 },
        { firmware: '1.9', devices: 1 },
      ],
      behind: [{ equipmentId: id(1), name: 'Projector', ...place, model: 'EB-L1500U', firmware: '1.9' }],
    },
    {
      model: 'Core 110f',
      newestFirmware: '9.4.1',
      versions: [{ firmware: '9.4.1', devices: 2 }],
      behind: [],
    },
  ],
  rebooted: [
    {
      equipmentId: id(2),
      name: 'Rack switch',
      ...place,
      model: null,
      firmware: null,
      rebootedAt: new Date(Date.now() - 2 * 3_600_000).toISOString(),
    },
  ],
});

describe(FleetPage.name, () => {
  it('shows firmware per model, the devices behind the newest, and the restarts of the last day', async () => {
    const calls = fakeFetch({ status: 200, body: fleet });
    renderWithApp(<FleetPage />);
    const [projectors, cores] = await screen.findAllByTestId('fleet-model');
    expect(calls.map((c) => c.url)).toEqual(['/api/fleet']);
    expect(within(projectors!).getByRole('heading', { name: 'EB-L1500U' })).toBeInTheDocument();
    const versions = within(projectors!).getByRole('list', { name: 'Firmware versions of EB-L1500U' });
    expect(
      within(versions)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['1.10newest3 devices', '1.91 device']);
    expect(within(projectors!).getByRole('heading', { name: 'Not on 1.10 (1 device)' })).toBeInTheDocument();
    const behind = within(projectors!).getByTestId('fleet-devices');
    expect(within(behind).getByRole('link', { name: 'Projector' })).toHaveAttribute(
      'href',
      `/rooms/${id(100)}`,
    );
    expect(behind).toHaveTextContent('204 · Science Hall');
    expect(behind).toHaveTextContent('1.9');
    expect(within(cores!).getByText('Every device is on the newest firmware.')).toBeInTheDocument();
    const restarted = screen.getByTestId('fleet-restarted');
    expect(restarted).toHaveTextContent('Restarted in the last 24 hours');
    expect(within(restarted).getByRole('link', { name: 'Rack switch' })).toBeInTheDocument();
    expect(restarted).toHaveTextContent('2 h ago');
  });

  it('offers the consumables report as a download', async () => {
    fakeFetch({ status: 200, body: fleet });
    renderWithApp(<FleetPage />);
    const link = screen.getByRole('link', { name: 'Download consumables (CSV)' });
    expect(link).toHaveAttribute('href', '/api/reports/consumables.csv');
    expect(link).toHaveAttribute('download');
  });

  it('says what to do while no device reports firmware', async () => {
    fakeFetch({ status: 200, body: { models: [], rebooted: [] } });
    renderWithApp(<FleetPage />);
    expect(
      await screen.findByText(
        'No device reports firmware yet — add a PJLink, SNMP, Q-SYS or Extron probe to a device',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('No device restarted in the last 24 hours.')).toBeInTheDocument();
  });

  it('says the fleet could not be loaded, and offers to try again', async () => {
    fakeFetch({ status: 500, body: { code: 'COMMON.INTERNAL', message: 'Inventory did not answer' } });
    renderWithApp(<FleetPage />);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Could not load the device fleet: Inventory did not answer',
    );
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
