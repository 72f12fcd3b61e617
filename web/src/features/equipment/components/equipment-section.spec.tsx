import { type Equipment } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { emptyOutbox, savedOffline } from '../../../test/outbox';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { formLookups } from '../test-lookups';
import { EquipmentSection } from './equipment-section';

const roomId = '00000000-0000-4000-8000-000000000001';
const lookups = formLookups({ id: roomId, buildingId: '00000000-0000-4000-8000-0000000000b1' });
let n = 0;
const item = (name: string, status: string): Equipment => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  roomId,
  name,
  model: null,
  serialNumber: null,
  ipAddress: '10.0.0.5',
  status,
  notes: null,
  imageUrl: null,
  type: null,
  upstreamEquipmentId: null,
  version: 1,
  lastCheckedAt: null,
  lastRttMs: null,
});

describe(EquipmentSection.name, () => {
  afterEach(emptyOutbox);

  it('says there is no equipment and offers to add the first', async () => {
    fakeFetch({ status: 200, body: [] });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    expect(await screen.findByText('No equipment added yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add First Equipment' }));
    expect(await screen.findByRole('dialog', { name: 'Add Equipment' })).toBeInTheDocument();
  });

  it('shows the equipment added to this room offline as pending cards, not as an empty room', async () => {
    fakeFetch({ status: 200, body: [] });
    await savedOffline({
      key: 'add-projector',
      route: 'createEquipment',
      params: { roomId },
      body: { name: 'Projector', ipAddress: '10.0.0.9' },
      label: 'Add equipment Projector',
    });
    await savedOffline({
      key: 'add-elsewhere',
      route: 'createEquipment',
      params: { roomId: '00000000-0000-4000-8000-0000000000ff' },
      body: { name: 'Display' },
      label: 'Add equipment Display',
    });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    const added = await screen.findByRole('list', { name: 'Added on this phone' });
    expect(
      within(added)
        .getAllByTestId('pending-create')
        .map((card) => card.textContent),
    ).toEqual(['ProjectorPending add']);
    expect(screen.queryByText('No equipment added yet')).not.toBeInTheDocument();
    // Once sent (here: taken off the phone), the server's list is what shows.
    await emptyOutbox();
    expect(await screen.findByText('No equipment added yet')).toBeInTheDocument();
  });

  it('shows each status with its colour and label', async () => {
    fakeFetch({
      status: 200,
      body: [
        item('Projector', 'active'),
        item('Display', 'inactive'),
        item('Amp', 'maintenance'),
        item('Switch', 'partial'),
        item('Old', 'online'),
      ],
    });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    const cards = await screen.findAllByTestId('equipment-card');
    const shown = cards.map((card) => [
      within(card).getByText(/Projector|Display|Amp|Switch|Old/).textContent,
      within(card).getByTestId('status-dot').dataset.tone,
      within(card).getByTestId('status-dot').parentElement?.textContent,
    ]);
    expect(shown).toEqual([
      ['Projector', 'green', 'Active'],
      ['Display', 'red', 'Inactive'],
      ['Amp', 'yellow', 'Maintenance'],
      ['Switch', 'yellow', 'Partial'],
      ['Old', 'grey', 'Unknown'],
    ]);
  });

  it('marks a device that answers ping but reports a fault, and names each probe in the details', async () => {
    const checkedAt = new Date().toISOString();
    const projector: Equipment = {
      ...item('Projector', 'active'),
      probe: { type: 'pjlink', secretsSet: [] },
      health: { state: 'warning', reasons: ['Filter warning'], checkedAt },
    };
    const amp: Equipment = {
      ...item('Amp', 'active'),
      probe: { type: 'icmp', secretsSet: [] },
      health: null,
    };
    fakeFetch({ status: 200, body: [projector, amp] }, { status: 200, body: {} });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    const [projectorCard, ampCard] = await screen.findAllByTestId('equipment-card');
    expect(within(projectorCard!).getByTestId('health-badge')).toHaveTextContent('Warning');
    expect(within(ampCard!).queryByTestId('health-badge')).not.toBeInTheDocument();
    await userEvent.click(ampCard!);
    const dialog = await screen.findByRole('dialog', { name: 'Equipment Details' });
    expect(within(dialog).getByText('Health Probe').nextSibling).toHaveTextContent('Ping only (ICMP)');
    expect(within(dialog).queryByTestId('health-panel')).not.toBeInTheDocument();
  });

  it('names the upstream device, with its room, in the details', async () => {
    const sw = item('Switch', 'active');
    const projector = { ...item('Projector', 'active'), upstreamEquipmentId: sw.id };
    const building = formLookups({ id: roomId, buildingId: '00000000-0000-4000-8000-0000000000b1' }, [
      { id: sw.id, name: 'Switch', ipAddress: '10.0.0.5', roomId, roomName: '204' },
    ]);
    const timeline = { status: 200, body: {} };
    // The dialog's timeline asks before the details look the upstream device up.
    const calls = fakeFetch({ status: 200, body: [projector, sw] }, timeline, ...building);
    renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click((await screen.findAllByTestId('equipment-card'))[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Equipment Details' });
    expect(await within(dialog).findByText('Switch (204)')).toBeInTheDocument();
    expect(within(dialog).getByText('Upstream Device').nextSibling).toHaveTextContent('Switch (204)');
    expect(calls.map((c) => c.url)).toContain(
      `/api/buildings/00000000-0000-4000-8000-0000000000b1/equipment`,
    );
  });

  it('refuses an address that is neither one address nor a range, and sends nothing', async () => {
    const calls = fakeFetch({ status: 200, body: [] }, ...lookups);
    renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add First Equipment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Equipment' });
    await userEvent.type(within(dialog).getByLabelText('Name *'), 'Projector');
    await userEvent.type(within(dialog).getByLabelText('IP Address'), '10.0.0.500');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Equipment' }));
    expect(await within(dialog).findByText(/IP address must be one IPv4 address/)).toBeInTheDocument();
    expect(calls.filter((c) => c.init?.method !== 'GET')).toEqual([]);
  });

  it('says the equipment could not be added and keeps the form open', async () => {
    fakeFetch({ status: 200, body: [] }, ...lookups, {
      status: 404,
      body: { code: 'INVENTORY.ROOM_NOT_FOUND', message: 'No such room' },
    });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add First Equipment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Equipment' });
    await userEvent.type(within(dialog).getByLabelText('Name *'), 'Projector');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('Failed to add equipment')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Add Equipment' })).toBeInTheDocument();
  });

  it('shows under the address why the server refused it, as well as the toast', async () => {
    const message =
      '8.8.8.8 is outside the networks this system may monitor (10.0.0.0/8): enter an address in one of them, or ask an administrator to add its network to MONITOR_ALLOWED_NETWORKS';
    fakeFetch({ status: 200, body: [] }, ...lookups, {
      status: 400,
      body: { code: 'COMMON.VALIDATION_FAILED', message, errors: [{ path: 'ipAddress', message }] },
    });
    renderWithApp(<EquipmentSection roomId={roomId} />);
    await userEvent.click(await screen.findByRole('button', { name: 'Add First Equipment' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add Equipment' });
    await userEvent.type(within(dialog).getByLabelText('Name *'), 'Projector');
    await userEvent.type(within(dialog).getByLabelText('IP Address'), '8.8.8.8');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('Failed to add equipment')).toBeInTheDocument();
    expect(await within(dialog).findByText(message)).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('IP Address'), '0');
    expect(within(dialog).queryByText(message)).not.toBeInTheDocument();
  });
});
