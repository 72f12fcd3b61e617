import { type ProbeSecretName } from '@cm/contracts';
import { useController, useFormContext } from 'react-hook-form';
import { Button } from '../../../components/ui/button';
import { Field } from '../../../components/ui/field';
import { Input } from '../../../components/ui/input';
import { editableField } from '../../../lib/form';
import { type ProbeHost } from '../lib/probe-form';

/** What each secret is called in the sentences around its box. */
const nouns: Record<ProbeSecretName, string> = {
  password: 'Password',
  community: 'Community',
  authKey: 'Authentication key',
  privKey: 'Privacy key',
};

interface SecretFieldProps {
  name: ProbeSecretName;
  label: string;
  /** The server holds a value for it (the probe's `secretsSet`); the value itself is never shown. */
  isSet: boolean;
  hint?: string;
}

/**
 * A write-only secret: its box starts empty. Left blank it keeps what the server holds; a value
 * typed replaces it; Clear removes it on save.
 */
export function SecretField({ name, label, isSet, hint }: SecretFieldProps) {
  const form = useFormContext<ProbeHost>();
  const box = `probe.secrets.${name}` as const;
  const { field: clear } = useController({ control: form.control, name: `probe.clear.${name}` });
  const noun = nouns[name];
  const toggle = () => {
    if (!clear.value) form.setValue(box, '');
    form.clearErrors(box);
    clear.onChange(!clear.value);
  };
  if (clear.value) {
    return (
      <div className="space-y-1.5">
        <p className="text-sm font-medium text-slate-800">{label}</p>
        <p className="text-sm text-slate-700" data-testid="secret-cleared">
          {noun} will be removed when you save.
        </p>
        <Button variant="outline" onClick={toggle}>
          Keep {noun.toLowerCase()}
        </Button>
      </div>
    );
  }
  const error = form.getFieldState(box, form.formState).error?.message;
  return (
    <div className="space-y-2">
      <Field label={label} error={error} hint={isSet ? `${noun} set — leave blank to keep` : hint}>
        {/* new-password: a browser must not offer the person's own sign-in password here. */}
        <Input
          type="password"
          autoComplete="new-password"
          autoCapitalize="none"
          autoCorrect="off"
          spellCheck={false}
          {...editableField(form, box)}
        />
      </Field>
      {isSet ? (
        <Button variant="outline" onClick={toggle}>
          Clear {noun.toLowerCase()}
        </Button>
      ) : null}
    </div>
  );
}
