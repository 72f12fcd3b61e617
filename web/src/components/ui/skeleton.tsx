import { type ComponentProps } from 'react';
import { cn } from '../../lib/cn';

/** A placeholder while something loads; one that is named ("Loading labels") is announced as a status. */
export function Skeleton({ className, ...props }: ComponentProps<'div'>) {
  return (
    <div
      role={props['aria-label'] ? 'status' : undefined}
      className={cn('animate-pulse rounded-md bg-slate-200', className)}
      {...props}
    />
  );
}
