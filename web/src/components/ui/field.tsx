import { type ReactElement, cloneElement, useId } from 'react';
import { type LengthCount } from '../../lib/text-limit';
import { cn } from '../../lib/cn';

interface FieldProps {
  label: string;
  error?: string;
  hint?: string;
  /** How many characters the control holds, once it is near its limit. */
  count?: LengthCount | null;
  /** One control; it gets the id, and the error as its accessible description. */
  children: ReactElement<{ id?: string; 'aria-invalid'?: boolean; 'aria-describedby'?: string }>;
}

/** A labelled form control with its validation message underneath. */
export function Field({ label, error, hint, count, children }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const countId = `${id}-count`;
  const describedBy = [error || hint ? messageId : null, count ? countId : null].filter(Boolean).join(' ');
  return (
    <div className="space-y-1.5">
      <div className="flex items-baseline justify-between gap-2">
        <label htmlFor={id} className="block text-sm font-medium text-slate-800">
          {label}
        </label>
        {count ? (
          <span
            id={countId}
            data-slot="length-count"
            aria-live="polite"
            className={cn(
              'shrink-0 text-xs tabular-nums',
              count.over ? 'font-semibold text-red-600' : 'text-slate-600',
            )}
          >
            {count.length} / {count.max}
            {count.over ? (
              <span className="sr-only"> characters, too long</span>
            ) : (
              <span className="sr-only"> characters</span>
            )}
          </span>
        ) : null}
      </div>
      {cloneElement(children, {
        id,
        'aria-invalid': error ? true : undefined,
        'aria-describedby': describedBy || undefined,
      })}
      {error ? (
        <p id={messageId} role="alert" className="text-sm text-red-600">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="text-xs text-slate-600">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
