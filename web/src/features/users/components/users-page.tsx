import { type User, type UserListItem, userRoleLabels } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { KeyRound, Lock, LockOpen, LogIn, Plus, ShieldCheck, User as UserIcon } from 'lucide-react';
import { type ReactNode, Suspense, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tooltip, TooltipProvider } from '../../../components/ui/tooltip';
import { toast } from '../../../components/ui/use-toast';
import { ApiError, errorMessage } from '../../../lib/api';
import { useClearSignInLock, useDeleteUser, useResetTotp, usersQuery } from '../api/users';
import type { UserFormState as FormState } from './user-form';

/**
 * The user form's dialog, whose code (the form library, the schemas' checks, the select and the
 * switch) comes after the list is drawn: mounted closed with the screen, it is there by the time
 * Add or Edit is tapped.
 */
const UserFormDialog = lazyComponent(
  () => import('./user-form'),
  (m) => m.UserFormDialog,
);

const fullName = (u: User) => [u.firstName, u.lastName].filter(Boolean).join(' ');

/** `changesOf`: a user's recent changes from the audit log, shown under the edit form. */
export function UsersPage({ changesOf }: { changesOf?: (userId: string) => ReactNode }) {
  const users = useQuery(usersQuery);
  const actions = useUserActions();
  const [form, setForm] = useState<FormState>({ open: false });

  // The server answers 403 to anyone but an administrator; say so rather than show an error.
  if (users.error instanceof ApiError && users.error.status === 403) {
    return <AdministratorsOnly />;
  }

  return (
    <div className="space-y-4">
      <div className="flex items-center justify-between gap-3">
        <h1 className="text-2xl font-bold text-slate-900">User Management</h1>
        <TooltipProvider>
          <Tooltip content="Add user">
            <Button size="round" aria-label="Add user" onClick={() => setForm({ open: true })}>
              <Plus aria-hidden className="h-6 w-6" />
            </Button>
          </Tooltip>
        </TooltipProvider>
      </div>
      {users.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading users" className="space-y-2">
          {Array.from({ length: 3 }, (_, i) => (
            <Skeleton key={i} className="h-20 rounded-xl" />
          ))}
        </div>
      ) : users.isError ? (
        <LoadError what="users" error={users.error} onRetry={() => users.refetch()} />
      ) : users.data.length === 0 ? (
        <Card className="p-8 text-center text-slate-600">No users found</Card>
      ) : (
        <ul className="space-y-2">
          {users.data.map((user) => (
            <li key={user.id}>
              <UserCard user={user} actions={actions} onEdit={() => setForm({ open: true, user })} />
            </li>
          ))}
        </ul>
      )}
      <Suspense fallback={null}>
        <UserFormDialog form={form} onClose={() => setForm({ open: false })} changesOf={changesOf} />
      </Suspense>
    </div>
  );
}

function AdministratorsOnly() {
  return (
    <Card role="alert" className="space-y-3 p-6 text-center">
      <Lock aria-hidden className="mx-auto h-10 w-10 text-slate-400" />
      <h1 className="text-lg font-semibold text-slate-900">Administrators only</h1>
      <p className="text-slate-600">
        User Management is available to administrators only. Ask an administrator if you need an account
        changed.
      </p>
    </Card>
  );
}

/** Deleting a user, clearing a sign-in lock and turning off two-factor sign-in, each once confirmed. */
function useUserActions() {
  const remove = useDeleteUser();
  const clearLock = useClearSignInLock();
  const resetTotp = useResetTotp();

  const confirmDelete = (user: User) => {
    if (!window.confirm(`Are you sure you want to delete the user ${user.username}?`)) return;
    remove.mutate(user.id, {
      onSuccess: () =>
        toast({ title: 'User deleted', description: 'The user has been successfully deleted.' }),
      onError: (error) =>
        toast({ title: 'Error deleting user', description: errorMessage(error), variant: 'destructive' }),
    });
  };

  const confirmClearLock = (user: UserListItem) => {
    if (!window.confirm(`Clear the sign-in lock of ${user.username}? They can try to sign in again at once.`))
      return;
    clearLock.mutate(user.id, {
      onSuccess: () =>
        toast({ title: 'Sign-in lock cleared', description: `${user.username} can sign in again.` }),
      onError: (error) =>
        toast({
          title: 'Error clearing sign-in lock',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  const confirmResetTotp = (user: UserListItem) => {
    if (
      !window.confirm(
        `Turn off two-factor sign-in of ${user.username}? They sign in with the password alone until they set it up again.`,
      )
    )
      return;
    resetTotp.mutate(user.id, {
      onSuccess: () =>
        toast({
          title: 'Two-factor sign-in turned off',
          description: `${user.username} signs in with the password alone.`,
        }),
      onError: (error) =>
        toast({
          title: 'Error turning off two-factor sign-in',
          description: errorMessage(error),
          variant: 'destructive',
        }),
    });
  };

  return { remove, clearLock, resetTotp, confirmDelete, confirmClearLock, confirmResetTotp };
}

function UserCard({
  user,
  actions,
  onEdit,
}: {
  user: UserListItem;
  actions: ReturnType<typeof useUserActions>;
  onEdit: () => void;
}) {
  return (
    <Card className="flex items-start gap-2 p-4 pr-2" data-testid="user-card">
      <div className="min-w-0 flex-1 space-y-1">
        <h2 className="font-semibold break-words text-slate-900">{user.username}</h2>
        {fullName(user) ? <p className="text-sm break-words text-slate-700">{fullName(user)}</p> : null}
        {user.email ? <p className="text-sm break-all text-slate-600">{user.email}</p> : null}
        <UserBadges user={user} />
        {user.signInLocked ? (
          <Button
            variant="outline"
            className="mt-2"
            aria-label={`Clear sign-in lock of ${user.username}`}
            disabled={actions.clearLock.isPending && actions.clearLock.variables === user.id}
            onClick={() => actions.confirmClearLock(user)}
          >
            <LockOpen aria-hidden className="h-4 w-4" />
            Clear sign-in lock
          </Button>
        ) : null}
        {user.totpEnabled ? (
          <Button
            variant="outline"
            className="mt-2"
            aria-label={`Turn off two-factor sign-in of ${user.username}`}
            disabled={actions.resetTotp.isPending && actions.resetTotp.variables === user.id}
            onClick={() => actions.confirmResetTotp(user)}
          >
            <KeyRound aria-hidden className="h-4 w-4" />
            Turn off two-factor
          </Button>
        ) : null}
      </div>
      <EditDeleteButtons
        name={user.username}
        deleting={actions.remove.isPending && actions.remove.variables === user.id}
        onEdit={onEdit}
        onDelete={() => actions.confirmDelete(user)}
      />
    </Card>
  );
}

function UserBadges({ user }: { user: UserListItem }) {
  return (
    <div className="flex flex-wrap gap-1.5 pt-1">
      {user.role === 'admin' ? (
        <Badge>
          <ShieldCheck aria-hidden className="h-3.5 w-3.5" />
          {userRoleLabels.admin}
        </Badge>
      ) : (
        <Badge variant="neutral">
          <UserIcon aria-hidden className="h-3.5 w-3.5" />
          {userRoleLabels.user}
        </Badge>
      )}
      {user.isActive === 0 ? <Badge variant="danger">Inactive</Badge> : null}
      {user.external ? (
        <Badge variant="neutral">
          <LogIn aria-hidden className="h-3.5 w-3.5" />
          Single sign-on
        </Badge>
      ) : null}
      {user.totpEnabled ? (
        <Badge variant="neutral">
          <KeyRound aria-hidden className="h-3.5 w-3.5" />
          Two-factor
        </Badge>
      ) : null}
      {user.signInLocked ? (
        <Badge variant="warning">
          <Lock aria-hidden className="h-3.5 w-3.5" />
          Sign-in locked
        </Badge>
      ) : null}
    </div>
  );
}
