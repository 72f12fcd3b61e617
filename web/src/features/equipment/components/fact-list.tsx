import { type ComponentProps, type ReactNode } from 'react';

/** Labelled facts of one equipment, label beside value, as its details show them. */
export function FactList({ rows, ...props }: { rows: [string, ReactNode][] } & ComponentProps<'dl'>) {
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2 text-sm" {...props}>
      {rows.map(([label, value]) => (
        <div key={label} className="contents">
          <dt className="text-slate-600">{label}</dt>
          <dd className="min-w-0 break-words text-slate-900">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
