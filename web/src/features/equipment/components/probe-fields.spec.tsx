import { deepProbeRangeMessage, type Equipment } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { formLookups } from '../test-lookups';
import { EquipmentForm } from './equipment-form';
import { ProbeFields } from './probe-fields';

const roomId = '00000000-0000-4000-8000-000000000001';
const projector: Equipment = {
  id: '00000000-0000-4000-8000-000000000002',
  roomId,
  name: 'Projector',
  model: 'EB-L1500',
  serialNumber: null,
  ipAddress: '10.0.0.5',
  status: 'active',
  notes: null,
  imageUrl: null,
  type: 'Projector',
  upstreamEquipmentId: null,
  version: 1,
  lastCheckedAt: null,
  lastRttMs: null,
  probe: { type: 'pjlink', intervalSeconds: 300, secretsSet: ['password'] },
  health: null,
};
const lookups = formLookups({ id: roomId, buildingId: '00000000-0000-4000-8000-000000000003' });

/** Opens the edit form once its lookups are answered; answers the save; returns its body. */
async function editing(equipment: Equipment) {
  const calls = fakeFetch(...lookups, { status: 200, body: equipment });
  renderWithApp(<EquipmentForm roomId={roomId} equipment={equipment} onDone={() => {}} />);
  await waitFor(() => expect(calls).toHaveLength(2));
  return async () => {
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText('Equipment updated successfully')).toBeInTheDocument();
    return JSON.parse(String(calls[2]?.init?.body)) as { probe?: unknown };
  };
}

/** Pastes rather than types: a form this long takes seconds a key on a busy machine. */
async function fill(label: string, text: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.paste(text);
}

async function choose(label: string, option: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.click(await screen.findByRole('option', { name: option }));
}

describe(ProbeFields.name, () => {
  it('shows a password the server holds as set, never its value, and keeps it when left blank', async () => {
    const save = await editing(projector);
    const password = screen.getByLabelText('PJLink password');
    expect(password).toHaveValue('');
    expect(password).toHaveAccessibleDescription('Password set — leave blank to keep');
    const interval = screen.getByLabelText('Every (seconds)');
    await userEvent.clear(interval);
    await userEvent.type(interval, '60');
    expect((await save()).probe).toEqual({ type: 'pjlink', intervalSeconds: 60 });
  });

  it('sends null for a password cleared', async () => {
    const save = await editing(projector);
    await userEvent.click(screen.getByRole('button', { name: 'Clear password' }));
    expect(screen.getByText('Password will be removed when you save.')).toBeInTheDocument();
    expect(screen.queryByLabelText('PJLink password')).not.toBeInTheDocument();
    expect((await save()).probe).toEqual({
      type: 'pjlink',
      intervalSeconds: 300,
      secrets: { password: null },
    });
  });

  it('keeps a cleared password after all when Keep is pressed', async () => {
    const save = await editing(projector);
    await userEvent.click(screen.getByRole('button', { name: 'Clear password' }));
    await userEvent.click(screen.getByRole('button', { name: 'Keep password' }));
    expect(screen.getByLabelText('PJLink password')).toHaveValue('');
    expect((await save()).probe).toBeUndefined();
  });

  it('sends a new password typed', async () => {
    const save = await editing(projector);
    await fill('PJLink password', 'lamp-room-7');
    expect((await save()).probe).toEqual({
      type: 'pjlink',
      intervalSeconds: 300,
      secrets: { password: 'lamp-room-7' },
    });
  });

  it('leaves the probe out when only other fields changed', async () => {
    const save = await editing(projector);
    await fill('Notes', 'Ceiling mount');
    const body = await save();
    expect(body).not.toHaveProperty('probe');
  });

  it('keeps the settings the form does not show when the type stays', async () => {
    const panel = {
      ...projector,
      probe: { type: 'http', https: true, path: '/', certificateWarningDays: 30, secretsSet: [] },
    } satisfies Equipment;
    const save = await editing(panel);
    expect(screen.getByLabelText('Port')).toHaveAttribute('placeholder', '443');
    await fill('Path', 'status');
    expect((await save()).probe).toEqual({
      type: 'http',
      https: true,
      path: '/status',
      certificateWarningDays: 30,
      intervalSeconds: 300,
    });
  });

  it("leaves new equipment's probe to the server until one is chosen, then sends the choice", async () => {
    const calls = fakeFetch(...lookups, { status: 201, body: projector });
    renderWithApp(<EquipmentForm roomId={roomId} onDone={() => {}} />);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(screen.getByLabelText('Protocol')).toHaveTextContent('Automatic: Ping only (ICMP)');
    await fill('Name *', 'Amplifier');
    await choose('Protocol', 'Ping only (ICMP)');
    expect(screen.queryByLabelText('Port')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('Equipment added successfully')).toBeInTheDocument();
    expect(JSON.parse(String(calls[2]?.init?.body)).probe).toEqual({ type: 'icmp' });
  });

  it("sends the lamp's and the filter's rated life, which the lamp bar and forecast need", async () => {
    const save = await editing(projector);
    await fill('Lamp life (hours)', '3000');
    await fill('Filter life (hours)', '2000');
    expect((await save()).probe).toEqual({
      type: 'pjlink',
      intervalSeconds: 300,
      lampRatedHours: 3000,
      filterRatedHours: 2000,
    });
  });

  it('shows the probe new equipment gets from its preset, ping only for a range, and leaves it to the server', async () => {
    const calls = fakeFetch(...lookups, { status: 201, body: projector });
    renderWithApp(<EquipmentForm roomId={roomId} onDone={() => {}} />);
    await waitFor(() => expect(calls).toHaveLength(2));
    await choose('Preset Product', 'QSC Q-SYS Core Nano (Core Nano)');
    expect(screen.getByLabelText('Protocol')).toHaveTextContent('Automatic: Q-SYS');
    await fill('IP Address', '127.0.0.70-73');
    expect(screen.getByLabelText('Protocol')).toHaveTextContent('Automatic: Ping only (ICMP)');
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('Equipment added successfully')).toBeInTheDocument();
    expect(JSON.parse(String(calls[2]?.init?.body))).not.toHaveProperty('probe');
  });

  it('refuses a probe beyond ping on an address range, as the server would, without sending it', async () => {
    const calls = fakeFetch(...lookups);
    renderWithApp(<EquipmentForm roomId={roomId} equipment={projector} onDone={() => {}} />);
    await waitFor(() => expect(calls).toHaveLength(2));
    await userEvent.clear(screen.getByLabelText('IP Address'));
    await fill('IP Address', '10.0.0.70-73');
    await userEvent.click(screen.getByRole('button', { name: 'Save Equipment' }));
    expect(await screen.findByText(deepProbeRangeMessage)).toBeInTheDocument();
    expect(screen.getByLabelText('IP Address')).toHaveAccessibleDescription(deepProbeRangeMessage);
    expect(calls).toHaveLength(2);
  });

  it("offers the protocol's port and says what the contract refuses, without saving", async () => {
    const calls = fakeFetch(...lookups);
    renderWithApp(<EquipmentForm roomId={roomId} onDone={() => {}} />);
    await waitFor(() => expect(calls).toHaveLength(2));
    await fill('Name *', 'Rack switch');
    await choose('Protocol', 'SNMP');
    expect(screen.getByLabelText('Port')).toHaveAttribute('placeholder', '161');
    await choose('SNMP version', 'v3');
    await fill('Authentication key', 'short');
    const interval = screen.getByLabelText('Every (seconds)');
    await userEvent.clear(interval);
    await userEvent.type(interval, '5');
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('SNMP v3 keys must be at least 8 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Every (seconds)')).toHaveAccessibleDescription(
      'Probe interval must be at least 10 seconds',
    );
    expect(calls).toHaveLength(2);
  });

  it('adds an SNMP v2c probe with its community and a value to watch', async () => {
    const calls = fakeFetch(...lookups, { status: 201, body: projector });
    renderWithApp(<EquipmentForm roomId={roomId} onDone={() => {}} />);
    await waitFor(() => expect(calls).toHaveLength(2));
    await fill('Name *', 'Display');
    await choose('Protocol', 'SNMP');
    await fill('Community', 'av-ro');
    await userEvent.click(screen.getByRole('button', { name: 'Add a value to watch' }));
    await fill('Label', 'Panel temperature');
    await fill('OID', '.1.3.6.1.4.1.9.1');
    await fill('Warning', '60');
    await fill('Error', '70');
    await userEvent.click(screen.getByRole('button', { name: 'Add Equipment' }));
    expect(await screen.findByText('Equipment added successfully')).toBeInTheDocument();
    expect(JSON.parse(String(calls[2]?.init?.body)).probe).toEqual({
      type: 'snmp',
      intervalSeconds: 300,
      version: '2c',
      oids: [{ label: 'Panel temperature', oid: '1.3.6.1.4.1.9.1', operator: '>', warning: 60, error: 70 }],
      secrets: { community: 'av-ro' },
    });
  });
});
