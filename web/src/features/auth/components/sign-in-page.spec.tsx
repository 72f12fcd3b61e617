import { singleSignOnMessages } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { SignInPage } from './sign-in-page';

// The screen asks for its sign-in options first, as it opens.
const options = (singleSignOn: { displayName: string } | null) => ({ status: 200, body: { singleSignOn } });
const withoutOptions = <C extends { url: string }>(calls: C[]) =>
  calls.filter((c) => c.url !== '/api/auth/options');

describe(SignInPage.name, () => {
  beforeEach(() => window.history.replaceState(null, '', '/'));

  it('says what is missing and sends nothing when a field is empty', async () => {
    const calls = fakeFetch(options(null));
    renderWithApp(<SignInPage />);
    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please enter both username and password.')).toBeInTheDocument();
    expect(withoutOptions(calls)).toEqual([]);
  });

  it("shows the server's reason when the sign-in is refused", async () => {
    const calls = fakeFetch(options(null), {
      status: 401,
      body: { code: 'AUTH.INVALID_CREDENTIALS', message: 'Invalid username or password' },
    });
    renderWithApp(<SignInPage />);
    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Sign in failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    expect(withoutOptions(calls)).toEqual([
      {
        url: '/api/login',
        init: expect.objectContaining({ method: 'POST', body: '{"username":"admin","password":"wrong"}' }),
      },
    ]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
  });

  it('asks for the two-factor code after a right password, and sends it with the challenge', async () => {
    const user = {
      id: '3f9e0a52-8a3e-4a2f-9c1e-6f1f0b2d7c11',
      username: 'admin',
      email: null,
      firstName: null,
      lastName: null,
      role: 'admin',
      isActive: 1,
      totpEnabled: true,
      external: false,
      createdAt: '2026-11-23T10:00:00.000Z',
      updatedAt: '2026-11-23T10:00:00.000Z',
    };
    const calls = fakeFetch(
      options(null),
      { status: 200, body: { totpRequired: true, challenge: 'signed.challenge' } },
      { status: 401, body: { code: 'AUTH.TOTP_INVALID', message: 'The code is wrong or was already used.' } },
      { status: 200, body: user },
    );
    renderWithApp(<SignInPage />);
    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'right');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    const code = await screen.findByLabelText('Two-factor code');
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();

    await userEvent.type(code, '000000');
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('The code is wrong or was already used.')).toBeInTheDocument();
    // A wrong code may be typed again without the password.
    await userEvent.clear(screen.getByLabelText('Two-factor code'));
    await userEvent.type(screen.getByLabelText('Two-factor code'), '123456');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled());
    await userEvent.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Welcome back!')).toBeInTheDocument();
    expect(withoutOptions(calls).map((c) => [c.url, c.init?.body])).toEqual([
      ['/api/login', '{"username":"admin","password":"right"}'],
      ['/api/login/totp', '{"challenge":"signed.challenge","code":"000000"}'],
      ['/api/login/totp', '{"challenge":"signed.challenge","code":"123456"}'],
    ]);
  });

  it('offers single sign-on when the server has it, coming back to this address', async () => {
    window.history.replaceState(null, '', '/rooms/5b0c7a52?tab=history#top');
    const calls = fakeFetch(options({ displayName: 'Contoso' }));
    renderWithApp(<SignInPage />);
    const link = await screen.findByRole('link', { name: 'Sign in with Contoso' });
    expect(link).toHaveAttribute(
      'href',
      `/api/auth/oidc/start?returnTo=${encodeURIComponent('/rooms/5b0c7a52?tab=history#top')}`,
    );
    expect(screen.getByText('or')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign In' })).toBeInTheDocument();
    expect(calls.map((c) => c.url)).toEqual(['/api/auth/options']);
  });

  it('offers no single sign-on when the server has none', async () => {
    fakeFetch(options(null));
    const { queryClient } = renderWithApp(<SignInPage />);
    await waitFor(() => expect(queryClient.getQueryState(['/api/auth/options'])?.status).toBe('success'));
    expect(screen.queryByRole('link')).not.toBeInTheDocument();
    expect(screen.queryByText('or')).not.toBeInTheDocument();
  });

  it('shows why a single sign-on was refused, and takes the code out of the address', async () => {
    window.history.replaceState(null, '', '/rooms/5b0c7a52?signInError=AUTH.SSO_ACCOUNT_CONFLICT');
    fakeFetch(options({ displayName: 'Contoso' }));
    renderWithApp(<SignInPage />);
    expect(screen.getByRole('alert')).toHaveTextContent(singleSignOnMessages['AUTH.SSO_ACCOUNT_CONFLICT']);
    await waitFor(() => expect(window.location.search).toBe(''));
    expect(window.location.pathname).toBe('/rooms/5b0c7a52');
    expect(await screen.findByRole('link', { name: 'Sign in with Contoso' })).toHaveAttribute(
      'href',
      `/api/auth/oidc/start?returnTo=${encodeURIComponent('/rooms/5b0c7a52')}`,
    );
    expect(screen.getByRole('alert')).toBeInTheDocument();
  });

  it('shows no words for a code it does not know', () => {
    window.history.replaceState(null, '', '/?signInError=%3Cb%3EYour%20account%20is%20gone');
    fakeFetch(options(null));
    renderWithApp(<SignInPage />);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.queryByText(/account is gone/)).not.toBeInTheDocument();
  });
});
