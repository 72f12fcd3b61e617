import {
  type User,
  type UserCreate,
  userCreateSchema,
  userRoleLabels,
  userRoles,
  type UserUpdate,
  userUpdateSchema,
} from '@cm/contracts';
import { type z } from 'zod';
import { FlagSwitchField } from '../../../components/form/flag-switch-field';
import { SelectField } from '../../../components/form/select-field';
import { FormActions } from '../../../components/form/form-actions';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { editableField, type SchemaFormProps, useSchemaForm } from '../../../lib/form';
import { useSaveUser } from '../api/users';

/** What the form holds; the edit schema reads it as the create schema does, bar the password. */
type UserFormValues = z.input<typeof userUpdateSchema>;

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
    // Spec section 5: a blank password keeps the current one and is not sent.
    const update = ({ password, ...body }: UserUpdate) =>
      save.mutate({ id: user.id, body: password ? { ...body, password } : body }, outcome);
    return (
      <UserFields
        key={user.id}
        {...fields}
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

function UserFields<Output>(props: SchemaFormProps<UserFormValues, Output>) {
  const { schema, defaultValues, onValid, editing, pending, onCancel } = props;
  const form = useSchemaForm(schema, defaultValues);
  const { errors } = form.formState;

  const submitLabel = editing
    ? pending
      ? 'Saving...'
      : 'Save User'
    : pending
      ? 'Creating...'
      : 'Create User';
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate className="space-y-4">
      <Field label="Username *" error={errors.username?.message}>
        <Input autoComplete="off" autoCapitalize="none" {...editableField(form, 'username')} />
      </Field>
      <Field
        label={editing ? 'Password' : 'Password *'}
        error={errors.password?.message}
        hint={editing ? 'Leave blank to keep the current password' : undefined}
      >
        <Input type="password" autoComplete="new-password" {...editableField(form, 'password')} />
      </Field>
      <Field label="Email" error={errors.email?.message}>
        <Input type="email" autoComplete="off" {...editableField(form, 'email')} />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="First Name" error={errors.firstName?.message}>
          <Input {...editableField(form, 'firstName')} />
        </Field>
        <Field label="Last Name" error={errors.lastName?.message}>
          <Input {...editableField(form, 'lastName')} />
        </Field>
      </div>
      <SelectField
        form={form}
        name="role"
        label="Role"
        options={userRoles}
        labelOf={(v) => userRoleLabels[v as keyof typeof userRoleLabels] ?? v}
        placeholder="Select role"
      />
      <FlagSwitchField control={form.control} name="isActive" label="Active" />
      <FormActions submitLabel={submitLabel} busy={pending} onCancel={onCancel} />
    </form>
  );
}
