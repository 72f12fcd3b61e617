import { authMessages } from '@cm/contracts';
import { screen } from '@testing-library/react';
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

  it('leaves two-factor sign-in to the identity provider for a single sign-on account', () => {
    const calls = fakeFetch();
    renderWithApp(<AccountPage external />);
    expect(screen.getByText(authMessages.externalTotp)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
