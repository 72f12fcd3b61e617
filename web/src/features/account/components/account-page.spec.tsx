import { authMessages } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { AccountPage } from './account-page';

describe(AccountPage.name, () => {
  it('offers two-factor set-up to an account that signs in here', async () => {
    const calls = fakeFetch({
      status: 200,
      body: { enabled: false, recoveryCodesLeft: 0, available: true, required: false },
    });
    renderWithApp(<AccountPage external={false} />);
    expect(await screen.findByRole('button', { name: 'Set up two-factor sign-in' })).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/account/totp']);
  });

  it('changes the password with the current one, showing under its field what the server refused', async () => {
    const user = userEvent.setup();
    const totpOff = {
      status: 200,
      body: { enabled: false, recoveryCodesLeft: 0, available: true, required: false },
    };
    const wrong = {
      code: 'AUTH.INVALID_CREDENTIALS',
      message: authMessages.wrongCurrentPassword,
      errors: [{ path: 'currentPassword', message: authMessages.wrongCurrentPassword }],
    };
    const calls = fakeFetch(totpOff, { status: 401, body: wrong }, { status: 204 });
    renderWithApp(<AccountPage external={false} />);
    const form = await screen.findByRole('form', { name: 'Change password' });
    await user.type(screen.getByLabelText('Current password'), 'my old phrase');
    await user.type(screen.getByLabelText('New password'), 'kettle violet drumroll');
    await user.type(screen.getByLabelText('New password again'), 'kettle violet drumrol');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(
      await screen.findByText('The two new passwords differ. Type the same one twice.'),
    ).toBeInTheDocument();
    expect(calls).toHaveLength(1);

    await user.type(screen.getByLabelText('New password again'), 'l');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByLabelText('Current password')).toHaveAccessibleDescription(
      authMessages.wrongCurrentPassword,
    );
    expect(calls[1]).toMatchObject({ url: '/api/account/password', init: { method: 'POST' } });
    expect(JSON.parse(calls[1].init!.body as string)).toEqual({
      currentPassword: 'my old phrase',
      newPassword: 'kettle violet drumroll',
    });

    await user.clear(screen.getByLabelText('Current password'));
    await user.type(screen.getByLabelText('Current password'), 'my real phrase');
    await user.click(screen.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password changed')).toBeInTheDocument();
    expect(screen.getByLabelText('New password')).toHaveValue('');
    expect(form).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByText('Password changed')).not.toBeInTheDocument());
  });

  it('leaves two-factor sign-in to the identity provider for a single sign-on account', () => {
    const calls = fakeFetch();
    renderWithApp(<AccountPage external />);
    expect(screen.getByText(authMessages.externalTotp)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
