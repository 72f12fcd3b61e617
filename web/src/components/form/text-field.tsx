import { type ComponentProps } from 'react';
import { type FieldValues, type Path, type UseFormReturn, useWatch } from 'react-hook-form';
import { editableField } from '../../lib/form';
import { lengthCount } from '../../lib/text-limit';
import { Field } from '../ui/field';
import { Input, Textarea } from '../ui/input';

type ControlProps = Omit<
  ComponentProps<'input'> & ComponentProps<'textarea'>,
  'form' | 'name' | 'maxLength' | 'onChange' | 'onBlur' | 'ref'
>;

interface TextFieldProps<T extends FieldValues, C, O> extends ControlProps {
  form: Pick<UseFormReturn<T, C, O>, 'control' | 'register' | 'clearErrors' | 'formState' | 'getFieldState'>;
  name: Path<T>;
  label: string;
  /** The contract's limit (see `maxLengthsOf`); none for a field without one. */
  max: number | undefined;
  hint?: string;
  multiline?: boolean;
}

/**
 * A text box bound to a form field, with the contract's length limit. It never cuts what is typed
 * or pasted (no maxLength): near the limit it counts the characters, past it the count turns red
 * and saving says what is too long.
 */
export function TextField<T extends FieldValues, C, O>(props: TextFieldProps<T, C, O>) {
  const { form, name, label, max, hint, multiline, ...control } = props;
  const value: unknown = useWatch({ control: form.control, name });
  const error = form.getFieldState(name, form.formState).error?.message;
  const registered = editableField(form, name);
  return (
    <Field label={label} error={error} hint={hint} count={lengthCount(value, max)}>
      {multiline ? <Textarea {...control} {...registered} /> : <Input {...control} {...registered} />}
    </Field>
  );
}
