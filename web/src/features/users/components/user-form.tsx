import {
  authMessages,
  type User,
  type UserCreate,
  userCreateSchema,
  userRoleLabels,
  userRoles,
  type UserUpdate,
  userUpdateSchema,
} from '@cm/contracts';
import { type ReactNode, Suspense } from 'react';
import { type z } from 'zod';
import { SwitchField } from '../../../components/form/switch-field';
import { SelectField } from '../../../components/form/select-field';
import { FormActions } from '../../../components/form/form-actions';
import { TextField } from '../../../components/form/text-field';
import { Dialog, DialogContent } from '../../../components/ui/dialog';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { type SchemaFormProps, useSchemaForm } from '../../../lib/form';
import { maxLengthsOf } from '../../../lib/text-limit';
import { useSaveUser } from '../api/users';

/** The users screen's form: closed, or open to add a user or edit one. */
export type UserFormState = { open: false } | { open: true; user?: User };

/** The form in its dialog, with the user's recent changes under it when editing (`changesOf`). */
export function UserFormDialog({
  form,
  onClose,
  changesOf,
}: {
  form: UserFormState;
  onClose: () => void;
  changesOf?: (userId: string) => ReactNode;
}) {
  return (
    <Dialog open={form.open} onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={form.open && form.user ? 'Edit User' : 'Add User'}>
        {form.open ? <UserForm user={form.user} onDone={onClose} /> : null}
        {form.open && form.user && changesOf ? (
          <Suspense fallback={<Skeleton className="h-16 w-full" />}>{changesOf(form.user.id)}</Suspense>
        ) : null}
      </DialogContent>
    </Dialog>
  );
}

/** What the form holds; the edit schema reads it as the create schema does, bar the password. */
type UserFormValues = z.input<typeof userUpdateSchema>;
const max = maxLengthsOf(userCreateSchema);

// Spec section 5: role user and active by default.
const emptyValues: UserFormValues = {
  username: '',
  password: '',
  email: '',
  firstName: '',
  lastName: '',
  role: 'user',
  isActive: 1,
};

const valuesOf = (u: User): UserFormValues => ({
  username: u.username,
  password: '',
  email: u.email ?? '',
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  role: u.role,
  isActive: u.isActive,
});

export function UserForm({ user, onDone }: { user?: User; onDone: () => void }) {
  const save = useSaveUser();
  const editing = Boolean(user);
  const verb = editing ? 'updated' : 'created';
  const outcome = {
    onSuccess: () => {
      toast({
        title: editing ? 'User updated' : 'User created',
        description: `The user has been successfully ${verb}.`,
      });
      onDone();
    },
    onError: (error: unknown) =>
      toast({
        title: editing ? 'Error updating user' : 'Error creating user',
        description: errorMessage(error),
        variant: 'destructive',
      }),
  };
  const fields = { editing, pending: save.isPending, onCancel: onDone };
  if (user) {
    // Spec section 5: a blank password keeps the current one and is not sent. An external user's
    // role is the identity provider's to set (the server refuses a change): it is not sent either.
    const update = ({ password, role, ...body }: UserUpdate) =>
      save.mutate(
        {
          id: user.id,
          body: { ...body, ...(password ? { password } : {}), ...(user.external ? {} : { role }) },
        },
        outcome,
      );
    return (
      <UserFields
        key={user.id}
        {...fields}
        external={user.external}
        schema={userUpdateSchema}
        defaultValues={valuesOf(user)}
        onValid={update}
      />
    );
  }
  const create = (body: UserCreate) => save.mutate({ body }, outcome);
  return (
    <UserFields
      key="new"
      {...fields}
      schema={userCreateSchema}
      defaultValues={emptyValues}
      onValid={create}
    />
  );
}

/** `external`: the user signs in through single sign-on, so password and role are not ours to set. */
function UserFields<Output>(props: SchemaFormProps<UserFormValues, Output> & { external?: boolean }) {
  const { schema, defaultValues, onValid, editing, pending, onCancel, external } = props;
  const form = useSchemaForm(schema, defaultValues);

  const submitLabel = editing
    ? pending
      ? 'Saving...'
      : 'Save User'
    : pending
      ? 'Creating...'
      : 'Create User';
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate className="space-y-4">
      <TextField
        form={form}
        name="username"
        label="Username *"
        max={max.username}
        autoComplete="off"
        autoCapitalize="none"
      />
      {external ? (
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-slate-800">Password</p>
          <p className="text-xs text-slate-600">{authMessages.externalPassword}</p>
        </div>
      ) : (
        <TextField
          form={form}
          name="password"
          label={editing ? 'Password' : 'Password *'}
          max={max.password}
          hint={editing ? 'Leave blank to keep the current password' : undefined}
          type="password"
          autoComplete="new-password"
        />
      )}
      <TextField form={form} name="email" label="Email" max={max.email} type="email" autoComplete="off" />
      <div className="grid grid-cols-2 gap-3">
        <TextField form={form} name="firstName" label="First Name" max={max.firstName} />
        <TextField form={form} name="lastName" label="Last Name" max={max.lastName} />
      </div>
      <SelectField
        form={form}
        name="role"
        label="Role"
        options={userRoles}
        labelOf={(v) => userRoleLabels[v as keyof typeof userRoleLabels] ?? v}
        placeholder="Select role"
        disabled={external}
        hint={external ? authMessages.externalRole : undefined}
      />
      <SwitchField control={form.control} name="isActive" label="Active" on={1} off={0} />
      <FormActions submitLabel={submitLabel} busy={pending} onCancel={onCancel} />
    </form>
  );
}
