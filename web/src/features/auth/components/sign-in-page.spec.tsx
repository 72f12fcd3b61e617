import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { SignInPage } from './sign-in-page';

describe(SignInPage.name, () => {
  it('says what is missing and sends nothing when a field is empty', async () => {
    const calls = fakeFetch();
    renderWithApp(<SignInPage />);
    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Missing information')).toBeInTheDocument();
    expect(screen.getByText('Please enter both username and password.')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it("shows the server's reason when the sign-in is refused", async () => {
    const calls = fakeFetch({
      status: 401,
      body: { code: 'AUTH.INVALID_CREDENTIALS', message: 'Invalid username or password' },
    });
    renderWithApp(<SignInPage />);
    await userEvent.type(screen.getByLabelText('Username'), 'admin');
    await userEvent.type(screen.getByLabelText('Password'), 'wrong');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In' }));
    expect(await screen.findByText('Sign in failed')).toBeInTheDocument();
    expect(screen.getByText('Invalid username or password')).toBeInTheDocument();
    expect(calls).toEqual([
      {
        url: '/api/login',
        init: expect.objectContaining({ method: 'POST', body: '{"username":"admin","password":"wrong"}' }),
      },
    ]);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Sign In' })).toBeEnabled());
  });
});
