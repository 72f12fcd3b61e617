import { authMessages, type User } from '@cm/contracts';
import { screen, waitFor } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { UserForm } from './user-form';

const user: User = {
  id: '00000000-0000-4000-8000-000000000001',
  username: 'teacher',
  email: 'teacher@college.edu',
  firstName: 'Ada',
  lastName: 'Byron',
  role: 'user',
  isActive: 1,
  totpEnabled: false,
  external: false,
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
};

describe(UserForm.name, () => {
  it('creates with role user and active by default, and needs a username and a password', async () => {
    const calls = fakeFetch({ status: 201, body: user });
    renderWithApp(<UserForm onDone={() => {}} />);
    expect(screen.getByRole('switch', { name: 'Active' })).toBeChecked();
    expect(screen.getByLabelText('Role')).toHaveTextContent('User');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Username is required')).toBeInTheDocument();
    expect(screen.getByText('Password is required')).toBeInTheDocument();
    expect(calls).toEqual([]);
    await userEvent.type(screen.getByLabelText('Username *'), 'teacher');
    await userEvent.type(screen.getByLabelText('Password *'), 'secret words');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('The user has been successfully created.')).toBeInTheDocument();
    expect(JSON.parse(String(calls[0].init?.body))).toMatchObject({
      username: 'teacher',
      password: 'secret words',
      role: 'user',
      isActive: 1,
    });
  });

  it('leaves a blank password out of an edit, so the current one is kept', async () => {
    const calls = fakeFetch({ status: 200, body: user });
    const onDone = jest.fn();
    renderWithApp(<UserForm user={user} onDone={onDone} />);
    expect(screen.getByLabelText('Password')).toHaveValue('');
    await userEvent.click(screen.getByRole('button', { name: 'Save User' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(calls[0].url).toBe(`/api/users/${user.id}`);
    expect(calls[0].init?.method).toBe('PUT');
    expect(JSON.parse(String(calls[0].init?.body))).not.toHaveProperty('password');
  });

  it("shows the server's reason when the save is refused", async () => {
    fakeFetch({
      status: 409,
      body: { code: 'AUTH.USERNAME_TAKEN', message: 'Username "teacher" is already in use. Choose another.' },
    });
    renderWithApp(<UserForm onDone={() => {}} />);
    await userEvent.type(screen.getByLabelText('Username *'), 'teacher');
    await userEvent.type(screen.getByLabelText('Password *'), 'secret words');
    await userEvent.click(screen.getByRole('button', { name: 'Create User' }));
    expect(await screen.findByText('Error creating user')).toBeInTheDocument();
    expect(screen.getByText('Username "teacher" is already in use. Choose another.')).toBeInTheDocument();
  });

  it('sets neither the password nor the role of a user who signs in through single sign-on', async () => {
    const external: User = { ...user, role: 'admin', external: true };
    const calls = fakeFetch({ status: 200, body: external });
    const onDone = jest.fn();
    renderWithApp(<UserForm user={external} onDone={onDone} />);
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.getByText(authMessages.externalPassword)).toBeInTheDocument();
    const role = screen.getByLabelText('Role');
    expect(role).toBeDisabled();
    expect(role).toHaveTextContent('Administrator');
    expect(role).toHaveAccessibleDescription(authMessages.externalRole);

    await userEvent.clear(screen.getByLabelText('First Name'));
    await userEvent.type(screen.getByLabelText('First Name'), 'Grace');
    await userEvent.click(screen.getByRole('button', { name: 'Save User' }));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    const body: unknown = JSON.parse(String(calls[0].init?.body));
    expect(body).toMatchObject({ username: 'teacher', firstName: 'Grace' });
    expect(body).not.toHaveProperty('password');
    expect(body).not.toHaveProperty('role');
  });

  it('keeps the password field and the role for a user who signs in here', () => {
    fakeFetch();
    renderWithApp(<UserForm user={user} onDone={() => {}} />);
    expect(screen.queryByText(authMessages.externalPassword)).not.toBeInTheDocument();
    expect(screen.getByLabelText('Role')).toBeEnabled();
  });
});
