import { type UserListItem } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { UsersPage } from './users-page';

const listed = (username: string, signInLocked: boolean): UserListItem => ({
  id: `00000000-0000-4000-8000-00000000000${username.length}`,
  username,
  email: null,
  firstName: null,
  lastName: null,
  role: 'user',
  isActive: 1,
  totpEnabled: false,
  external: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
  signInLocked,
});

describe(UsersPage.name, () => {
  const locked = listed('teacher', true);
  const free = listed('librarian', false);
  const clearButton = (username: string) =>
    screen.queryByRole('button', { name: `Clear sign-in lock of ${username}` });

  afterEach(() => jest.restoreAllMocks());

  it('shows who is locked out of signing in, and clears the lock after a confirmation', async () => {
    const calls = fakeFetch(
      { status: 200, body: [free, locked] },
      { status: 204 },
      { status: 200, body: [free, { ...locked, signInLocked: false }] },
    );
    const confirm = jest.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<UsersPage />);

    await waitFor(() => expect(clearButton('teacher')).toBeInTheDocument());
    expect(screen.getAllByText('Sign-in locked')).toHaveLength(1);
    expect(clearButton('librarian')).not.toBeInTheDocument();

    await userEvent.click(clearButton('teacher')!);
    expect(confirm).toHaveBeenCalledWith(
      'Clear the sign-in lock of teacher? They can try to sign in again at once.',
    );
    expect(await screen.findByText('Sign-in lock cleared')).toBeInTheDocument();
    expect(screen.getByText('teacher can sign in again.')).toBeInTheDocument();
    expect([calls[1].url, calls[1].init?.method]).toEqual([`/api/users/${locked.id}/sign-in-lock`, 'DELETE']);
    await waitFor(() => expect(screen.queryByText('Sign-in locked')).not.toBeInTheDocument());
    expect(clearButton('teacher')).not.toBeInTheDocument();
  });

  it('sends nothing when the confirmation is declined', async () => {
    const calls = fakeFetch({ status: 200, body: [locked] });
    jest.spyOn(window, 'confirm').mockReturnValue(false);
    renderWithApp(<UsersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Clear sign-in lock of teacher' }));
    expect(calls).toHaveLength(1);
    expect(screen.getByText('Sign-in locked')).toBeInTheDocument();
  });

  it("shows the server's reason when the lock cannot be cleared", async () => {
    fakeFetch(
      { status: 200, body: [locked] },
      {
        status: 404,
        body: { code: 'AUTH.USER_NOT_FOUND', message: 'No such user. It may have been deleted.' },
      },
    );
    jest.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<UsersPage />);
    await userEvent.click(await screen.findByRole('button', { name: 'Clear sign-in lock of teacher' }));
    expect(await screen.findByText('Error clearing sign-in lock')).toBeInTheDocument();
    expect(screen.getByText('No such user. It may have been deleted.')).toBeInTheDocument();
  });

  it("turns off a user's two-factor sign-in after a confirmation", async () => {
    const enrolled = { ...free, totpEnabled: true };
    const calls = fakeFetch(
      { status: 200, body: [enrolled, locked] },
      { status: 204 },
      { status: 200, body: [free, locked] },
    );
    const confirm = jest.spyOn(window, 'confirm').mockReturnValue(true);
    renderWithApp(<UsersPage />);
    const button = (username: string) =>
      screen.queryByRole('button', { name: `Turn off two-factor sign-in of ${username}` });
    await waitFor(() => expect(button('librarian')).toBeInTheDocument());
    expect(screen.getAllByText('Two-factor')).toHaveLength(1);
    expect(button('teacher')).not.toBeInTheDocument();

    await userEvent.click(button('librarian')!);
    expect(confirm).toHaveBeenCalledWith(
      'Turn off two-factor sign-in of librarian? They sign in with the password alone until they set it up again.',
    );
    expect(await screen.findByText('Two-factor sign-in turned off')).toBeInTheDocument();
    expect([calls[1].url, calls[1].init?.method]).toEqual([`/api/users/${free.id}/totp`, 'DELETE']);
    await waitFor(() => expect(button('librarian')).not.toBeInTheDocument());
  });

  it('marks the users who sign in through single sign-on', async () => {
    fakeFetch({ status: 200, body: [free, { ...locked, signInLocked: false, external: true }] });
    renderWithApp(<UsersPage />);
    const cards = await screen.findAllByTestId('user-card');
    expect(cards[0]).not.toHaveTextContent('Single sign-on');
    expect(cards[1]).toHaveTextContent('Single sign-on');
  });
});
