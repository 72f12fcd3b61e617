import { Search } from 'lucide-react';
import { type ComponentProps } from 'react';
import { cn } from '../../lib/cn';
import { Input } from './input';

/** A search box with its magnifier drawn inside, on the left. */
export function SearchInput({ className, ...props }: Omit<ComponentProps<'input'>, 'type'>) {
  return (
    <div className="relative">
      <Search
        aria-hidden
        className="pointer-events-none absolute top-1/2 left-3 h-5 w-5 -translate-y-1/2 text-slate-400"
      />
      <Input type="search" className={cn('pl-10', className)} {...props} />
    </div>
  );
}
