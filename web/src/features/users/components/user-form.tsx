import { type User, userCreateSchema, userRoleLabels, userRoles, userUpdateSchema } from '@cm/contracts';
import { type FormEvent, useId, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import { Switch } from '../../../components/ui/switch';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { fieldErrors } from '../../../lib/form-errors';
import { useSaveUser } from '../api/users';

type Values = {
  username: string;
  password: string;
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  isActive: 0 | 1;
};
type Errors = Partial<Record<keyof Values, string>>;

// Spec section 5: role user and active by default.
const emptyValues: Values = {
  username: '',
  password: '',
  email: '',
  firstName: '',
  lastName: '',
  role: 'user',
  isActive: 1,
};

const valuesOf = (u: User): Values => ({
  username: u.username,
  password: '',
  email: u.email ?? '',
  firstName: u.firstName ?? '',
  lastName: u.lastName ?? '',
  role: u.role,
  isActive: u.isActive,
});

export function UserForm({ user, onDone }: { user?: User; onDone: () => void }) {
  const editing = Boolean(user);
  const activeId = useId();
  const [values, setValues] = useState<Values>(user ? valuesOf(user) : emptyValues);
  const [errors, setErrors] = useState<Errors>({});
  const save = useSaveUser();
  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors((e) => ({ ...e, [key]: undefined }));
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const verb = editing ? 'updated' : 'created';
    const onSuccess = () => {
      toast({
        title: editing ? 'User updated' : 'User created',
        description: `The user has been successfully ${verb}.`,
      });
      onDone();
    };
    const onError = (error: unknown) =>
      toast({
        title: editing ? 'Error updating user' : 'Error creating user',
        description: errorMessage(error),
        variant: 'destructive',
      });
    if (user) {
      // Spec section 5: a blank password keeps the current one and is not sent.
      const { password, ...rest } = values;
      const parsed = userUpdateSchema.safeParse(password ? values : rest);
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      setErrors({});
      const { password: kept, ...body } = parsed.data;
      save.mutate({ id: user.id, body: kept ? { ...body, password: kept } : body }, { onSuccess, onError });
    } else {
      const parsed = userCreateSchema.safeParse(values);
      if (!parsed.success) return setErrors(fieldErrors(parsed.error));
      setErrors({});
      save.mutate({ body: parsed.data }, { onSuccess, onError });
    }
  };

  const submitLabel = editing
    ? save.isPending
      ? 'Saving...'
      : 'Save User'
    : save.isPending
      ? 'Creating...'
      : 'Create User';
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Username *" error={errors.username}>
        <Input
          name="username"
          autoComplete="off"
          autoCapitalize="none"
          value={values.username}
          onChange={(e) => set('username', e.target.value)}
        />
      </Field>
      <Field
        label={editing ? 'Password' : 'Password *'}
        error={errors.password}
        hint={editing ? 'Leave blank to keep the current password' : undefined}
      >
        <Input
          name="password"
          type="password"
          autoComplete="new-password"
          value={values.password}
          onChange={(e) => set('password', e.target.value)}
        />
      </Field>
      <Field label="Email" error={errors.email}>
        <Input
          name="email"
          type="email"
          autoComplete="off"
          value={values.email}
          onChange={(e) => set('email', e.target.value)}
        />
      </Field>
      <div className="grid grid-cols-2 gap-3">
        <Field label="First Name" error={errors.firstName}>
          <Input
            name="firstName"
            value={values.firstName}
            onChange={(e) => set('firstName', e.target.value)}
          />
        </Field>
        <Field label="Last Name" error={errors.lastName}>
          <Input name="lastName" value={values.lastName} onChange={(e) => set('lastName', e.target.value)} />
        </Field>
      </div>
      <Field label="Role" error={errors.role}>
        <Select
          value={values.role}
          onValueChange={(v) => set('role', v)}
          options={userRoles}
          labelOf={(v) => userRoleLabels[v as keyof typeof userRoleLabels] ?? v}
          placeholder="Select role"
        />
      </Field>
      <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 py-1 pr-1 pl-3">
        <label htmlFor={activeId} className="text-sm font-medium text-slate-800">
          Active
        </label>
        <Switch
          id={activeId}
          checked={values.isActive === 1}
          onCheckedChange={(checked) => set('isActive', checked ? 1 : 0)}
        />
      </div>
      <div className="flex gap-2 pt-2">
        <Button variant="outline" className="flex-1" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" className="flex-1" disabled={save.isPending}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
