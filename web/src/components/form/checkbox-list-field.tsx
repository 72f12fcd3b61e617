import { type FieldValues, type Path, type UseFormReturn, useController } from 'react-hook-form';

interface CheckboxListFieldProps<T extends FieldValues, C, O, V extends string | number> {
  form: Pick<UseFormReturn<T, C, O>, 'control' | 'clearErrors'>;
  /** A field holding the list of the values ticked. */
  name: Path<T>;
  legend: string;
  options: readonly { value: V; label: string }[];
  /** How the boxes stand: a column that scrolls, a row that wraps. */
  className?: string;
}

/** A group of tick boxes bound to a list field; ticking or unticking clears the field's message. */
export function CheckboxListField<T extends FieldValues, C, O, V extends string | number>(
  props: CheckboxListFieldProps<T, C, O, V>,
) {
  const { form, name, legend, options, className } = props;
  const { field, fieldState } = useController({ control: form.control, name });
  const ticked: readonly V[] = Array.isArray(field.value) ? field.value : [];
  const tick = (value: V, on: boolean) => {
    field.onChange(on ? [...ticked, value] : ticked.filter((v) => v !== value));
    form.clearErrors(name);
  };
  const message = fieldState.error?.message;
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {message ? (
        <p role="alert" className="text-sm text-red-600">
          {message}
        </p>
      ) : null}
      <div className={className}>
        {options.map(({ value, label }) => (
          <label key={value} className="flex min-h-11 items-center gap-2 text-sm text-slate-800">
            <input
              type="checkbox"
              className="h-5 w-5"
              checked={ticked.includes(value)}
              onChange={(e) => tick(value, e.target.checked)}
            />
            {label}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
