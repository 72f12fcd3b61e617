import * as SwitchPrimitive from '@radix-ui/react-switch';
import { type ComponentProps } from 'react';
import { cn } from '../../lib/cn';

export function Switch({ className, ...props }: ComponentProps<typeof SwitchPrimitive.Root>) {
  return (
    <SwitchPrimitive.Root
      className={cn(
        // The visible track is small; the padding keeps the touch target at 44 px.
        'group relative inline-flex h-11 w-14 shrink-0 cursor-pointer items-center justify-center rounded-full',
        'focus-visible:outline-2 focus-visible:outline-brand-600 disabled:cursor-not-allowed disabled:opacity-50',
        className,
      )}
      {...props}
    >
      <span
        aria-hidden
        className="absolute h-7 w-12 rounded-full bg-slate-300 transition-colors group-data-[state=checked]:bg-brand-700"
      />
      <SwitchPrimitive.Thumb className="relative block h-6 w-6 -translate-x-2.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-2.5" />
    </SwitchPrimitive.Root>
  );
}
