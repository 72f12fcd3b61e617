import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import {
  type DefaultValues,
  type FieldError,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormClearErrors,
  type UseFormRegister,
  type UseFormSetError,
  useForm,
} from 'react-hook-form';
import { type z } from 'zod';
import { fieldErrorsOf } from './api';
import { clearDraft, readDraft, writeDraft } from './offline/drafts';

/**
 * How the forms check what was typed: when it is sent, not on every key, and without moving the
 * focus. A message is about the value a field had then, so editing the field clears it.
 */
const checkOnSubmit = { mode: 'onSubmit', reValidateMode: 'onSubmit', shouldFocusError: false } as const;

// Secrets (a probe's community string, a chat access token) stay out of drafts' storage: they are typed again.
const withoutSecrets = (k: string, v: unknown) => (/secret|password|accessToken/i.test(k) ? undefined : v);

/**
 * A form checked by a contract schema: it holds `Values` and answers the schema's output. With a
 * draft key, it opens with the draft kept under it (over the defaults) and keeps what is typed.
 */
export function useSchemaForm<Values extends FieldValues, Output>(
  schema: z.ZodType<Output, Values>,
  defaultValues: DefaultValues<Values>,
  draftKey?: string,
) {
  const [initial] = useState(() => {
    const draft = draftKey ? readDraft(draftKey) : null;
    if (!draft) return defaultValues;
    // Only what fits the form: a refused save's body comes back as a draft in the API's shape,
    // where a field the form holds as text may be null.
    const fits = Object.entries(draft.values).filter(
      ([field, value]) =>
        field in defaultValues && typeof value === typeof (defaultValues as Record<string, unknown>)[field],
    );
    return { ...defaultValues, ...Object.fromEntries(fits) } as DefaultValues<Values>;
  });
  const form = useForm({
    ...checkOnSubmit,
    resolver: onTheField(zodResolver(schema)),
    defaultValues: initial,
  });
  const { subscribe } = form;
  const [untouched] = useState(() => JSON.stringify(form.getValues(), withoutSecrets));
  useEffect(() => {
    if (!draftKey) return;
    return subscribe({
      formState: { values: true },
      callback: ({ values }) => {
        const kept = JSON.stringify(values, withoutSecrets);
        // Values as the form opened them (the record's) are no draft: one kept would hide a later edit.
        if (kept === untouched) clearDraft(draftKey);
        else writeDraft(draftKey, JSON.parse(kept) as Record<string, unknown>);
      },
    });
  }, [draftKey, subscribe, untouched]);
  return form;
}

/**
 * A field holds one value, though the schema may judge a part of it (the second of the addresses
 * typed in one box): the field shows the first message found anywhere inside it. A group of
 * fields (the probe's settings) keeps each message on its own field.
 */
function onTheField<V extends FieldValues, C, O>(resolver: Resolver<V, C, O>): Resolver<V, C, O> {
  return async (values, context, options) => {
    const result = await resolver(values, context, options);
    const fields: readonly string[] = options.names ?? [];
    onFields(result.errors, '', fields);
    return result;
  };
}

function onFields(errors: Record<string, unknown>, prefix: string, fields: readonly string[]) {
  for (const [key, error] of Object.entries(errors)) {
    const name = prefix + key;
    const group = !fields.includes(name) && fields.some((f) => f.startsWith(`${name}.`));
    if (group && typeof error === 'object' && error !== null && !('message' in error)) {
      onFields(error as Record<string, unknown>, `${name}.`, fields);
    } else {
      errors[key] = firstError(error) ?? error;
    }
  }
}

function firstError(error: unknown): FieldError | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  if ('message' in error && typeof error.message === 'string') return error as FieldError;
  for (const inner of Object.values(error)) {
    const found = firstError(inner);
    if (found) return found;
  }
  return undefined;
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

/**
 * Shows under its field what the server refused there and the schema could not know (an address
 * outside the networks the deployment allows), besides the toast. `fields` must be a constant.
 */
export function useServerFieldErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  error: unknown,
  fields: readonly Path<T>[],
) {
  useEffect(() => {
    for (const { path, message } of fieldErrorsOf(error)) {
      // The gateway names the body's field, or a part of it (`recipients.1`); a service names it
      // inside its message (`equipment.ipAddress`).
      const field = fields.find((f) => path === f || path.startsWith(`${f}.`) || path.endsWith(`.${f}`));
      if (field) setError(field, { message });
    }
  }, [error, setError, fields]);
}
