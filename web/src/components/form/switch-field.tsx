import { useId } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { Switch } from '../ui/switch';

/** A labelled switch for a flag the contracts store as 1 (on) or 0 (off). */
export function FlagSwitchField<T extends FieldValues, C, O>({
  control,
  name,
  label,
}: {
  control: Control<T, C, O>;
  name: Path<T>;
  label: string;
}) {
  const id = useId();
  const { field } = useController({ control, name });
  return (
    <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 py-1 pr-1 pl-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <Switch id={id} checked={field.value === 1} onCheckedChange={(on) => field.onChange(on ? 1 : 0)} />
    </div>
  );
}
