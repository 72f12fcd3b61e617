import { type Channel } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { type ReactElement } from 'react';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { buildingId, buildingsAnswer as buildings } from '../test/buildings';
import { ChannelForm } from './channel-form';

const channel: Channel = {
  id: '00000000-0000-4000-8000-0000000000c1',
  name: 'AV on-call',
  type: 'webhook',
  url: 'https://hooks.example.edu/av',
  host: 'hooks.example.edu',
  recipients: null,
  enabled: true,
  buildingIds: null,
  createdAt: '2025-01-06T08:00:00.000Z',
  updatedAt: '2025-01-06T08:00:00.000Z',
};

/**
 * Puts text in a field as one paste: typed a key at a time, each key redraws the whole form, and
 * a form of a dozen fields took most of the 20 s a test has on a busy two-core machine. Typing
 * itself is tested where a message must change as the person types.
 */
async function fill(label: string, text: string) {
  await userEvent.click(screen.getByLabelText(label));
  await userEvent.paste(text);
}

/** The form once the buildings it offers are in. */
async function shown(ui: ReactElement) {
  renderWithApp(ui);
  await screen.findByLabelText('Science Hall');
}

describe(ChannelForm.name, () => {
  it('says under each field what is wrong, sends nothing, and drops a message once its field is edited', async () => {
    const calls = fakeFetch(buildings);
    await shown(<ChannelForm onDone={() => {}} />);
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByText('Channel name is required')).toBeInTheDocument();
    expect(screen.getByLabelText('Name')).toHaveAttribute('aria-invalid', 'true');
    expect(screen.getByLabelText('Webhook URL')).toHaveAccessibleDescription('A webhook channel needs a URL');

    await userEvent.type(screen.getByLabelText('Name'), 'AV');
    expect(screen.queryByText('Channel name is required')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Webhook URL'), 'hooks.example.edu/av');
    expect(screen.queryByText('A webhook channel needs a URL')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    expect(
      await screen.findByText(
        'URL must be an http:// or https:// address, such as https://hooks.example.edu/av',
      ),
    ).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/buildings']);
  });

  it('does not offer e-mail without a mail server, and says why', async () => {
    fakeFetch(buildings);
    const reason =
      'E-mail channels need an SMTP server: set SMTP_HOST and SMTP_FROM for the inventory service (see docs/operations.md)';
    await shown(
      <ChannelForm
        types={[
          { type: 'webhook', available: true, reason: null },
          { type: 'email', available: false, reason },
        ]}
        onDone={() => {}}
      />,
    );
    expect(screen.getByTestId('channel-type-unavailable')).toHaveTextContent(
      `E-mail is not offered: ${reason}`,
    );
    await userEvent.click(screen.getByLabelText('Type'));
    expect(await screen.findByRole('option', { name: 'Webhook' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'E-mail' })).not.toBeInTheDocument();
  });

  it('names a bad recipient under Recipients, then sends the e-mail channel for the buildings ticked', async () => {
    const calls = fakeFetch(buildings, {
      status: 201,
      body: { ...channel, name: 'AV team', type: 'email', url: null, host: null, secret: null },
    });
    const onDone = jest.fn();
    await shown(<ChannelForm onDone={onDone} />);
    await userEvent.type(screen.getByLabelText('Name'), 'AV team');
    await userEvent.click(screen.getByLabelText('Type'));
    await userEvent.click(await screen.findByRole('option', { name: 'E-mail' }));
    const recipients = screen.getByLabelText('Recipients');
    await userEvent.type(recipients, 'Av@School.edu, front desk');
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByText('Each recipient must be a valid email address')).toBeInTheDocument();
    expect(recipients).toHaveAttribute('aria-invalid', 'true');
    expect(calls).toHaveLength(1);

    await userEvent.clear(recipients);
    await userEvent.type(recipients, 'Av@School.edu; desk@school.edu');
    await userEvent.click(screen.getByLabelText('Science Hall'));
    await userEvent.click(screen.getByRole('switch', { name: 'Enabled' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));

    expect(await screen.findByText('AV team was added.')).toBeInTheDocument();
    expect(calls[1]).toMatchObject({ url: '/api/notification-channels', init: { method: 'POST' } });
    expect(JSON.parse(String(calls[1].init?.body))).toEqual({
      name: 'AV team',
      type: 'email',
      url: null,
      recipients: ['av@school.edu', 'desk@school.edu'],
      enabled: false,
      buildingIds: [buildingId],
    });
    await waitFor(() => expect(onDone).toHaveBeenCalledWith(undefined));
  });

  it("hands over a new webhook's secret, to be shown once", async () => {
    fakeFetch(buildings, { status: 201, body: { ...channel, secret: 'whsec_abc' } });
    const onDone = jest.fn();
    await shown(<ChannelForm onDone={onDone} />);
    await userEvent.type(screen.getByLabelText('Name'), 'AV on-call');
    await userEvent.type(screen.getByLabelText('Webhook URL'), 'https://hooks.example.edu/av');
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    await waitFor(() => expect(onDone).toHaveBeenCalledWith('whsec_abc'));
  });

  it('edits a channel as it is, keeping its type, and says under the URL why the server refused it', async () => {
    const refusal = 'The webhook address 10.1.2.3 is not among the allowed targets';
    const calls = fakeFetch(buildings, {
      status: 400,
      body: {
        code: 'COMMON.VALIDATION_FAILED',
        message: refusal,
        errors: [{ path: 'url', message: refusal }],
      },
    });
    await shown(<ChannelForm channel={channel} onDone={() => {}} />);
    await userEvent.click(screen.getByLabelText('Type'));
    expect((await screen.findAllByRole('option')).map((o) => o.textContent)).toEqual(['Webhook']);
    await userEvent.keyboard('{Escape}');
    await userEvent.click(screen.getByRole('button', { name: 'Update channel' }));

    expect(await screen.findByText('Error updating channel')).toBeInTheDocument();
    expect(screen.getByLabelText('Webhook URL')).toHaveAccessibleDescription(refusal);
    expect(calls[1]).toMatchObject({
      url: `/api/notification-channels/${channel.id}`,
      init: { method: 'PUT' },
    });
    expect(JSON.parse(String(calls[1].init?.body))).toEqual({
      name: 'AV on-call',
      type: 'webhook',
      url: 'https://hooks.example.edu/av',
      recipients: null,
      enabled: true,
      buildingIds: null,
    });
  });

  it('asks a Matrix channel for its homeserver, room and token, and keeps the token on an edit left empty', async () => {
    const matrix: Channel = {
      ...channel,
      name: 'AV room',
      type: 'matrix',
      url: 'https://matrix.example.edu',
      host: 'matrix.example.edu',
      roomId: '!AbCdEf:example.edu',
    };
    const calls = fakeFetch(buildings, { status: 200, body: matrix });
    await shown(<ChannelForm channel={matrix} onDone={() => {}} />);
    expect(screen.getByLabelText('Homeserver URL')).toHaveValue('https://matrix.example.edu');
    expect(screen.getByLabelText('Room ID')).toHaveValue('!AbCdEf:example.edu');
    const token = screen.getByLabelText('Access token');
    expect(token).toHaveValue('');
    expect(token).toHaveAttribute('type', 'password');
    expect(token).toHaveAccessibleDescription('Leave empty to keep the current token');
    await userEvent.click(screen.getByRole('button', { name: 'Update channel' }));

    await waitFor(() => expect(calls).toHaveLength(2));
    expect(JSON.parse(String(calls[1].init?.body))).toEqual({
      name: 'AV room',
      type: 'matrix',
      url: 'https://matrix.example.edu',
      recipients: null,
      roomId: '!AbCdEf:example.edu',
      accessToken: null,
      enabled: true,
      buildingIds: null,
    });
  });

  it('names the Teams and Slack URL fields for what to paste', async () => {
    fakeFetch(buildings);
    await shown(<ChannelForm onDone={() => {}} />);
    await userEvent.click(screen.getByLabelText('Type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Microsoft Teams' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    expect(await screen.findByLabelText('Workflows webhook URL')).toHaveAccessibleDescription(
      'A Teams channel needs its Workflows webhook URL',
    );
    await userEvent.click(screen.getByLabelText('Type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Slack' }));
    expect(screen.getByLabelText('Incoming webhook URL')).toBeInTheDocument();
  });

  it('asks a ServiceNow channel for its user, password and mapping, empty boxes left to the defaults', async () => {
    const calls = fakeFetch(buildings, {
      status: 201,
      body: { ...channel, type: 'servicenow', secret: null },
    });
    const onDone = jest.fn();
    await shown(<ChannelForm onDone={onDone} />);
    await fill('Name', 'AV desk');
    await userEvent.click(screen.getByLabelText('Type'));
    await userEvent.click(await screen.findByRole('option', { name: 'ServiceNow' }));
    await fill('Instance URL', 'https://campus.service-now.com');
    await fill('Integration user', 'cm.integration');
    await fill('Password', 'pw');
    await fill('Assignment group', 'AV Support');
    await fill('Extra fields on resolve', '{"u_cause": "Network"}');
    expect(screen.getByLabelText('Urgency when all devices are offline')).toHaveAccessibleDescription(
      'A class in the room now or soon always gets 1 – High',
    );
    await userEvent.click(screen.getByLabelText('Impact when all devices are offline'));
    await userEvent.click(await screen.findByRole('option', { name: '1 – High' }));
    await userEvent.click(screen.getByLabelText('Urgency when some devices are offline'));
    await userEvent.click(await screen.findByRole('option', { name: '3 – Low' }));
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));

    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(JSON.parse(String(calls[1].init?.body))).toEqual({
      name: 'AV desk',
      type: 'servicenow',
      url: 'https://campus.service-now.com',
      recipients: null,
      username: 'cm.integration',
      password: 'pw',
      mapping: expect.objectContaining({
        assignmentGroup: 'AV Support',
        closeCode: 'Solution provided',
        resolveState: '6',
        resolveFields: { u_cause: 'Network' },
        // Those not chosen at their defaults.
        severity: { high: { urgency: '1', impact: '1' }, medium: { urgency: '3', impact: '2' } },
      }),
      enabled: true,
      buildingIds: null,
    });
  });

  it("shows a ServiceNow channel's urgency and impact to edit, and asks Jira for its priorities", async () => {
    const desk: Channel = {
      ...channel,
      type: 'servicenow',
      username: 'cm.integration',
      mapping: { severity: { high: { urgency: '1', impact: '1' }, medium: { urgency: '3', impact: '3' } } },
    };
    fakeFetch(buildings);
    const { unmount } = renderWithApp(<ChannelForm channel={desk} onDone={() => {}} />);
    await screen.findByLabelText('Science Hall');
    expect(screen.getByLabelText('Impact when all devices are offline')).toHaveTextContent('1 – High');
    expect(screen.getByLabelText('Urgency when some devices are offline')).toHaveTextContent('3 – Low');
    unmount();

    const calls = fakeFetch(buildings, {
      status: 201,
      body: { ...channel, type: 'jira-service-management', secret: null },
    });
    const onDone = jest.fn();
    await shown(<ChannelForm onDone={onDone} />);
    await fill('Name', 'AV JSM');
    await userEvent.click(screen.getByLabelText('Type'));
    await userEvent.click(await screen.findByRole('option', { name: 'Jira Service Management' }));
    await fill('Site URL', 'https://campus.atlassian.net');
    await fill('Account e-mail', 'av-bot@campus.edu');
    await fill('API token', 'tok');
    await fill('Project key', 'AV');
    expect(screen.getByLabelText('Priority when all devices are offline')).toHaveAccessibleDescription(
      'Also when a class is in the room now or soon. Empty: "High"',
    );
    await fill('Priority when all devices are offline', 'Highest');
    await userEvent.click(screen.getByRole('button', { name: 'Add channel' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(JSON.parse(String(calls[1].init?.body)).mapping).toMatchObject({
      projectKey: 'AV',
      priority: { high: 'Highest', medium: 'Medium' },
    });
  });
});
