import { type ApiToken } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { ApiTokensTab } from './api-tokens-tab';

const token: ApiToken = {
  id: '00000000-0000-4000-8000-000000000009',
  userId: '00000000-0000-4000-8000-000000000001',
  name: 'Nightly export',
  role: 'user',
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
    // A user's token can only be a user's: no role to choose.
    expect(screen.queryByLabelText('Role')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Name *'), 'Nightly export');
    const before = Date.now();
    await userEvent.click(screen.getByRole('button', { name: 'Create Token' }));
    expect(await screen.findByTestId('api-token-value')).toHaveTextContent(secret);
    expect(screen.getByRole('button', { name: 'Copy token' })).toBeInTheDocument();
    const sent = JSON.parse(String(calls[1].init?.body)) as { name: string; role: string; expiresAt: string };
    expect(sent).toMatchObject({ name: 'Nightly export', role: 'user' });
    // 90 days unless another lifetime is chosen.
    expect(new Date(sent.expiresAt).getTime() - before).toBeGreaterThan(89 * 24 * 3600 * 1000);
    await userEvent.click(screen.getByRole('button', { name: 'Done' }));
    expect(await screen.findByText('Nightly export')).toBeInTheDocument();
    expect(screen.getByTestId('token-last-used')).toHaveTextContent('Never');
    expect(screen.queryByText(secret)).not.toBeInTheDocument();
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
