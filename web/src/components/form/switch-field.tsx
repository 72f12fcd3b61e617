import { useId } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { Switch } from '../ui/switch';

/**
 * A labelled switch bound to a form field that holds true or false, or the pair the contract
 * stores instead (`on={1} off={0}` for a flag kept as a number).
 */
export function SwitchField<T extends FieldValues, C, O>({
  control,
  name,
  label,
  on = true,
  off = false,
}: {
  control: Control<T, C, O>;
  name: Path<T>;
  label: string;
  on?: boolean | number;
  off?: boolean | number;
}) {
  const id = useId();
  const { field } = useController({ control, name });
  return (
    <div className="flex items-center justify-between gap-3 rounded-lg border border-slate-200 py-1 pr-1 pl-3">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <Switch
        id={id}
        checked={field.value === on}
        onCheckedChange={(checked) => field.onChange(checked ? on : off)}
      />
    </div>
  );
}
