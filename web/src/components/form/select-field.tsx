import { type FieldValues, type Path, type UseFormReturn, useController } from 'react-hook-form';
import { Field } from '../ui/field';
import { Select } from '../ui/select';

interface SelectFieldProps<T extends FieldValues, C, O> {
  form: Pick<UseFormReturn<T, C, O>, 'control' | 'clearErrors'>;
  name: Path<T>;
  label: string;
  options: readonly string[];
  placeholder: string;
  labelOf?: (value: string) => string;
  hint?: string;
  disabled?: boolean;
  /** Said instead of the schema's message while nothing is chosen. */
  unchosenMessage?: string;
}

/** A labelled list box bound to a form field; choosing clears the field's message. */
export function SelectField<T extends FieldValues, C, O>(props: SelectFieldProps<T, C, O>) {
  const { form, name, label, hint, unchosenMessage, ...select } = props;
  const { field, fieldState } = useController({ control: form.control, name });
  const value = typeof field.value === 'string' ? field.value : '';
  const message = fieldState.error?.message;
  return (
    <Field
      label={label}
      hint={hint}
      error={message && (!value && unchosenMessage ? unchosenMessage : message)}
    >
      <Select
        {...select}
        value={value}
        onValueChange={(chosen) => {
          field.onChange(chosen);
          form.clearErrors(name);
        }}
      />
    </Field>
  );
}
