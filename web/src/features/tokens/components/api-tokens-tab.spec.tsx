import { type ApiToken } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { ApiTokensTab } from './api-tokens-tab';

const token: ApiToken = {
  id: '00000000-0000-4000-8000-000000000009',
  userId: '00000000-0000-4000-8000-000000000001',
  name: 'Nightly export',
  role: 'user',
  scope: 'read',
  createdAt: '2026-11-01T00:00:00.000Z',
  expiresAt: '2099-01-01T00:00:00.000Z',
  lastUsedAt: null,
};
const secret = `cm_${'a'.repeat(43)}`;

describe(ApiTokensTab.name, () => {
  it('creates a token with a name and an expiry, and shows it once with a copy button', async () => {
    const calls = fakeFetch(
      { status: 200, body: [] },
      { status: 201, body: { ...token, token: secret } },
      { status: 200, body: [token] },
    );
    renderWithApp(<ApiTokensTab userRole="user" />);
    expect(await screen.findByText('No API tokens yet.')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Create token' }));
    // Read only unless another scope is chosen.
    expect(screen.getByLabelText('Scope')).toHaveTextContent('Read only');
    await userEvent.type(screen.getByLabelText('Name *'), 'Nightly export');
    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByTestId('api-token-value')).toHaveTextContent(secret);
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const sent = JSON.parse(String(calls[1].init?.body)) as {
      name: string;
      scope: string;
      expiresAt: string;
    };
    expect(sent).toMatchObject({ name: 'Nightly export', scope: 'read' });
    // 90 days unless another lifetime is chosen.
    expect(new Date(sent.expiresAt).getTime() - before).toBeGreaterThan(89 * 24 * 3600 * 1000);
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Nightly export')).toBeInTheDocument();
    expect(screen.getByTestId('token-last-used')).toHaveTextContent('Never');
    expect(screen.queryByText(secret)).not.toBeInTheDocument();
  });

  it("offers an administrator the admin scope, with a field for the authenticator app's code", async () => {
    const calls = fakeFetch(
      { status: 200, body: [] },
      { status: 201, body: { ...token, role: 'admin', scope: 'admin', token: secret } },
      { status: 200, body: [] },
    );
    renderWithApp(<ApiTokensTab userRole="admin" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create token' }));
    expect(screen.queryByLabelText('Code from your authenticator app')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name *'), 'Provisioning');
    await userEvent.click(screen.getByLabelText('Scope'));
    await userEvent.click(screen.getByRole('option', { name: 'Administration' }));
    await userEvent.type(screen.getByLabelText('Code from your authenticator app'), '123456');
    await userEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByTestId('api-token-value')).toHaveTextContent(secret);
    expect(JSON.parse(String(calls[1].init?.body))).toMatchObject({
      name: 'Provisioning',
      scope: 'admin',
      code: '123456',
    });
  });

  it('offers a user no admin scope', async () => {
    fakeFetch({ status: 200, body: [] });
    renderWithApp(<ApiTokensTab userRole="user" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Create token' }));
    await userEvent.click(screen.getByLabelText('Scope'));
    expect(screen.getByRole('option', { name: 'Read and change' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Administration' })).not.toBeInTheDocument();
  });

  it('revokes a token after asking', async () => {
    const calls = fakeFetch({ status: 200, body: [token] }, { status: 204 }, { status: 200, body: [] });
    jest.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<ApiTokensTab userRole="admin" />);
    await userEvent.click(await screen.findByRole('button', { name: 'Revoke Nightly export' }));
    await waitFor(() => expect(calls[1]?.init?.method).toBe('DELETE'));
    expect(calls[1].url).toBe(`/api/tokens/${token.id}`);
    expect(await screen.findByText('No API tokens yet.')).toBeInTheDocument();
  });
});
