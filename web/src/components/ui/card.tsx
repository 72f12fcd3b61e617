import { type LucideIcon } from 'lucide-react';
import { type ComponentProps, type ReactNode } from 'react';
import { cn } from '../../lib/cn';

export function Card({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div className={cn('rounded-xl border border-slate-200 bg-white shadow-sm', className)} {...props} />
  );
}

/** A settings card's title, with its icon. */
export function CardTitle({ icon: Icon, children }: { icon: LucideIcon; children: ReactNode }) {
  return (
    <div className="flex items-center gap-2">
      <Icon aria-hidden className="h-5 w-5 text-brand-700" />
      <h2 className="text-lg font-semibold text-slate-900">{children}</h2>
    </div>
  );
}
