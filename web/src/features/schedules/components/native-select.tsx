import { type ComponentProps } from 'react';
import { cn } from '../../../lib/cn';

/**
 * A plain `<select>` of ids with their names: the phone's own picker. Not the app's Radix Select,
 * whose code this lazily loaded tab would otherwise split out of the chunks /settings loads first.
 */
export function NativeSelect({
  options,
  labelOf,
  placeholder,
  className,
  ...props
}: Omit<ComponentProps<'select'>, 'children'> & {
  options: readonly string[];
  labelOf: (value: string) => string;
  placeholder: string;
}) {
  return (
    <select
      className={cn(
        'h-11 w-full rounded-lg border border-slate-300 bg-white px-3 text-base disabled:bg-slate-50',
        className,
      )}
      {...props}
    >
      <option value="" disabled>
        {placeholder}
      </option>
      {options.map((option) => (
        <option key={option} value={option}>
          {labelOf(option)}
        </option>
      ))}
    </select>
  );
}
