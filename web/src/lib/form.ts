import { zodResolver } from '@hookform/resolvers/zod';
import {
  type DefaultValues,
  type FieldValues,
  type Path,
  type UseFormClearErrors,
  type UseFormRegister,
  useForm,
} from 'react-hook-form';
import { type z } from 'zod';

/**
 * How the forms check what was typed: when it is sent, not on every key, and without moving the
 * focus. A message is about the value a field had then, so editing the field clears it.
 */
const checkOnSubmit = { mode: 'onSubmit', reValidateMode: 'onSubmit', shouldFocusError: false } as const;

/** A form checked by a contract schema: it holds `Values` and answers the schema's output. */
export function useSchemaForm<Values extends FieldValues, Output>(
  schema: z.ZodType<Output, Values>,
  defaultValues: DefaultValues<Values>,
) {
  return useForm({ ...checkOnSubmit, resolver: zodResolver(schema), defaultValues });
}

/**
 * A form shown both to create and to edit: the mode's schema checks the same fields, and
 * answers that mode's payload.
 */
export interface SchemaFormProps<Values, Output> {
  schema: z.ZodType<Output, Values>;
  defaultValues: Values;
  onValid: (body: Output) => void;
  editing: boolean;
  pending: boolean;
  onCancel: () => void;
}

interface FieldForm<T extends FieldValues> {
  register: UseFormRegister<T>;
  clearErrors: UseFormClearErrors<T>;
}

/** Registers a text field whose message goes away as soon as it is edited. */
export function editableField<T extends FieldValues>({ register, clearErrors }: FieldForm<T>, name: Path<T>) {
  return register(name, { onChange: () => clearErrors(name) });
}
