import { cn } from '../../../lib/cn';
import { statusIndicator, toneDotClass } from '../lib/status';

/** A coloured dot with the status's label beside it (colour alone would not tell everyone). */
export function StatusIndicator({ status, className }: { status: string; className?: string }) {
  const { label, tone } = statusIndicator(status);
  return (
    <span className={cn('inline-flex items-center gap-1.5 text-sm text-slate-700', className)}>
      <span
        aria-hidden
        data-testid="status-dot"
        data-tone={tone}
        className={cn('h-2.5 w-2.5 shrink-0 rounded-full', toneDotClass[tone])}
      />
      {label}
    </span>
  );
}
