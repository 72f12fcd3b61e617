import { type ScheduleSource } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { CalendarDays, Paperclip, Rss } from 'lucide-react';
import { Suspense, useId, useState } from 'react';
import { Badge } from '../../../components/ui/badge';
import { Card } from '../../../components/ui/card';
import { EditDeleteButtons } from '../../../components/ui/edit-delete-buttons';
import { lazyComponent } from '../../../components/ui/lazy-component';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage, fieldErrorsOf } from '../../../lib/api';
import { scheduleSourcesQuery, useDeleteScheduleSource } from '../api/schedules';
import { useUploadScheduleFile } from '../api/schedule-upload';
import { ScheduleSourceForm } from './schedule-source-form';
import { UnmatchedLocations } from './unmatched-locations';

/**
 * The edit dialog, whose code (the form library and its schema checks) comes after the list is
 * drawn: mounted closed with the tab, it is there by the time Edit is tapped.
 */
const ScheduleEditDialog = lazyComponent(
  () => import('./schedule-edit-dialog'),
  (m) => m.ScheduleEditDialog,
);

const when = (iso: string) =>
  new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * Settings → Class schedules (administrators): the timetables rooms know their classes from, a
 * feed or an uploaded .ics or CSV file each, with how its last read went; and the locations that
 * name no room yet.
 */
export function ClassSchedulesTab() {
  const sources = useQuery(scheduleSourcesQuery);
  const [editing, setEditing] = useState<ScheduleSource | null>(null);
  return (
    <div className="space-y-4">
      <h2 className="sr-only">Class schedules</h2>
      {sources.isPending ? (
        <Skeleton className="h-24 w-full" />
      ) : sources.isError ? (
        <LoadError what="class schedules" error={sources.error} onRetry={() => sources.refetch()} />
      ) : sources.data.length === 0 ? (
        <Card className="p-4 text-sm text-slate-600">
          No class schedules yet. Add a room&apos;s or a building&apos;s timetable below: a feed from 25Live,
          Microsoft 365 or Google Calendar, or a file.
        </Card>
      ) : (
        <ul className="space-y-3">
          {sources.data.map((source) => (
            <SourceCard key={source.id} source={source} onEdit={() => setEditing(source)} />
          ))}
        </ul>
      )}
      <UnmatchedLocations />
      <ScheduleSourceForm />
      <Suspense fallback={null}>
        <ScheduleEditDialog source={editing} onClose={() => setEditing(null)} />
      </Suspense>
    </div>
  );
}

function SourceCard({ source, onEdit }: { source: ScheduleSource; onEdit: () => void }) {
  const remove = useDeleteScheduleSource();
  const Icon = source.kind === 'feed' ? Rss : CalendarDays;
  return (
    <li>
      <Card className="space-y-2 p-4">
        <div className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="flex items-center gap-2 font-semibold wrap-anywhere text-slate-900">
              <Icon aria-hidden className="h-4 w-4 shrink-0 text-brand-700" />
              {source.name}
            </p>
            {/* A feed's address has no spaces to wrap at: it breaks where it must rather than widen the screen. */}
            <p className="text-sm wrap-anywhere text-slate-600">
              {source.placeName}
              {source.kind === 'feed' ? ` · ${source.url}` : source.fileName ? ` · ${source.fileName}` : ''}
            </p>
          </div>
          <EditDeleteButtons
            name={source.name}
            deleting={remove.isPending}
            onEdit={onEdit}
            onDelete={() => {
              const sure = window.confirm(
                `Delete the class schedule ${source.name}? Its classes leave the rooms' next class and the readiness checks.`,
              );
              if (!sure) return;
              remove.mutate(source.id, {
                onError: (error) =>
                  toast({ title: 'Error', description: errorMessage(error), variant: 'destructive' }),
              });
            }}
          />
        </div>
        <SourceState source={source} />
        {source.kind === 'file' ? <FileUpload source={source} /> : null}
      </Card>
    </li>
  );
}

/** Last good read, a failing feed's error and since when, and the lines that could not be read. */
function SourceState({ source }: { source: ScheduleSource }) {
  return (
    <div className="space-y-1 text-sm">
      <p className="flex flex-wrap items-center gap-2 text-slate-700">
        {source.failingSince ? (
          <Badge variant="danger">Failing since {when(source.failingSince)}</Badge>
        ) : source.lastGoodAt ? (
          <Badge variant="success">Read {when(source.lastGoodAt)}</Badge>
        ) : (
          <Badge variant="neutral">{source.kind === 'feed' ? 'Not read yet' : 'No file yet'}</Badge>
        )}
        <span>
          {source.occurrences} class{source.occurrences === 1 ? '' : 'es'} in the next 14 days
          {source.unmatched ? `, ${source.unmatched} without a room` : ''}
        </span>
      </p>
      {source.lastError ? (
        <p role="status" className="text-red-700">
          {source.lastError}
          {source.lastGoodAt ? ` The schedule read ${when(source.lastGoodAt)} is still used.` : ''}
        </p>
      ) : null}
      {source.problems.length ? (
        <details className="text-amber-800">
          <summary>
            {source.problems.length} event{source.problems.length === 1 ? '' : 's'} could not be read
          </summary>
          <ul className="mt-1 list-disc pl-5">
            {source.problems.map((p) => (
              <li key={`${p.line}:${p.message}`}>
                Line {p.line}: {p.message}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
    </div>
  );
}

/** A timetable file for a schedule without a feed; one with errors is refused, each error by line. */
function FileUpload({ source }: { source: ScheduleSource }) {
  const inputId = useId();
  const upload = useUploadScheduleFile();
  const lines = upload.isError ? fieldErrorsOf(upload.error) : [];
  return (
    <div className="space-y-2">
      <label
        htmlFor={inputId}
        className="flex min-h-11 cursor-pointer items-center gap-2 rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600"
      >
        <Paperclip aria-hidden className="h-5 w-5 text-brand-700" />
        {upload.isPending ? 'Reading the file…' : 'Upload a timetable (.ics or CSV)'}
      </label>
      <input
        id={inputId}
        type="file"
        accept=".ics,.csv,text/calendar,text/csv"
        className="sr-only"
        disabled={upload.isPending}
        onChange={(e) => {
          const file = e.target.files?.[0];
          // The same file picked again (after fixing it) is sent again.
          e.target.value = '';
          if (file)
            upload.mutate(
              { id: source.id, file },
              { onSuccess: () => toast({ title: 'Success', description: 'Timetable read' }) },
            );
        }}
      />
      {upload.isError ? (
        <div role="alert" className="space-y-1 text-sm text-red-600">
          <p>
            {lines.length
              ? 'The file was not used. Fix these lines and upload it again:'
              : errorMessage(upload.error)}
          </p>
          {lines.length ? (
            <ul className="list-disc pl-5">
              {lines.map((l) => (
                <li key={`${l.path}:${l.message}`}>
                  {l.path.replace(/^line/, 'Line')}: {l.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
