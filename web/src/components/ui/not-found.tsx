import { Link } from 'wouter';
import { Card } from './card';

/** A room or building the address names that does not exist (any more): no retry, a way back. */
export function NotFound({ what }: { what: 'Room' | 'Building' }) {
  return (
    <Card role="alert" className="space-y-3 p-6 text-center">
      <h1 className="text-lg font-semibold">{what} not found</h1>
      <p className="text-slate-600">It may have been deleted, or the link is wrong.</p>
      <Link
        href="/buildings"
        className="inline-flex min-h-11 items-center font-medium text-brand-700 underline"
      >
        Back to Buildings
      </Link>
    </Card>
  );
}
