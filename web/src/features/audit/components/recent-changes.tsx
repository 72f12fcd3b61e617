import { type AuditEntityType, type AuditEntry } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { History } from 'lucide-react';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { recentChangesQuery } from '../api/audit';

const actionLabels: Record<AuditEntry['action'], string> = {
  create: 'Created',
  update: 'Changed',
  delete: 'Deleted',
  start: 'Started',
  stop: 'Stopped',
  check: 'Checked',
  'sign-in': 'Signed in',
  'sign-in-failed': 'Sign-in refused',
  use: 'Used',
};

const shown = (value: unknown) =>
  value === null || value === undefined || value === ''
    ? '(empty)'
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** What an update changed, field by field: "name: A-101 → A-102". */
function changesOf(entry: AuditEntry): string[] {
  if (entry.action !== 'update' || !entry.after) return [];
  return Object.keys(entry.after).map(
    (key) => `${key}: ${shown(entry.before?.[key])} → ${shown(entry.after?.[key])}`,
  );
}

/** The latest audit entries of one record, for administrators (room detail, User Management). */
export function RecentChanges({ entityType, entityId }: { entityType: AuditEntityType; entityId: string }) {
  const entries = useQuery(recentChangesQuery(entityType, entityId));
  return (
    <Card className="space-y-3 p-4">
      <div className="flex items-center gap-2">
        <History aria-hidden className="h-5 w-5 text-brand-700" />
        <h2 className="text-lg font-semibold text-slate-900">Recent Changes</h2>
      </div>
      {entries.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : entries.isError ? (
        <LoadError what="recent changes" error={entries.error} onRetry={() => entries.refetch()} />
      ) : entries.data.items.length === 0 ? (
        <p className="text-sm text-slate-600">No changes recorded.</p>
      ) : (
        <ul className="space-y-2">
          {entries.data.items.map((entry) => (
            <li key={entry.id} className="text-sm text-slate-700" data-testid="audit-entry">
              <p>
                <span className="font-semibold text-slate-900">{actionLabels[entry.action]}</span>
                {/* Refusals counted into one entry: how many it stands for, within its minute. */}
                {entry.count > 1 ? ` ${entry.count} times` : ''} by {entry.actorName ?? 'someone unknown'}
                {entry.apiTokenId ? ' (API token)' : ''}, {new Date(entry.at).toLocaleString()}
              </p>
              {changesOf(entry).map((line) => (
                <p key={line} className="break-words text-slate-600">
                  {line}
                </p>
              ))}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
