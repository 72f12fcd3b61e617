import { passwordChangeSchema } from '@cm/contracts';
import { z } from 'zod';
import { TextField } from '../../../components/form/text-field';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useSchemaForm, useServerFieldErrors } from '../../../lib/form';
import { useChangePassword } from '../api/password';

/** Typed twice, since a mistyped new password would lock its owner out at the next sign-in. */
const formSchema = passwordChangeSchema
  .extend({ repeatPassword: z.string() })
  .refine((v) => v.repeatPassword === v.newPassword, {
    path: ['repeatPassword'],
    message: 'The two new passwords differ. Type the same one twice.',
  });
type FormValues = z.input<typeof formSchema>;

const empty: FormValues = { currentPassword: '', newPassword: '', repeatPassword: '' };
const serverFields = ['currentPassword', 'newPassword'] as const;

/** The account's own password; not for single sign-on accounts, whose provider keeps it. */
export function PasswordCard() {
  const change = useChangePassword();
  const form = useSchemaForm(formSchema, empty);
  useServerFieldErrors(form.setError, change.error, serverFields);

  const submit = ({ currentPassword, newPassword }: z.output<typeof formSchema>) =>
    change.mutate(
      { currentPassword, newPassword },
      {
        onSuccess: () => {
          form.reset(empty);
          toast({
            title: 'Password changed',
            description: 'Use the new password from now on. Your other sessions have been signed out.',
          });
        },
        onError: (error) =>
          toast({ title: 'Password not changed', description: errorMessage(error), variant: 'destructive' }),
      },
    );

  return (
    <Card className="space-y-4 p-5">
      <h2 className="text-lg font-semibold text-slate-900">Password</h2>
      <form
        onSubmit={form.handleSubmit(submit)}
        noValidate
        className="space-y-4"
        aria-label="Change password"
      >
        <TextField
          form={form}
          name="currentPassword"
          label="Current password"
          type="password"
          autoComplete="current-password"
          max={undefined}
        />
        <TextField
          form={form}
          name="newPassword"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 12 characters. A few words that do not belong together are easy to remember and hard to guess."
          max={undefined}
        />
        <TextField
          form={form}
          name="repeatPassword"
          label="New password again"
          type="password"
          autoComplete="new-password"
          max={undefined}
        />
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Changing...' : 'Change password'}
        </Button>
      </form>
    </Card>
  );
}
