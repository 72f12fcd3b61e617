import { type IncidentRef, type OpenAlert } from '@cm/contracts';
import { useQuery } from '@tanstack/react-query';
import { BellRing } from 'lucide-react';
import { LoadError } from '../../../components/ui/load-error';
import { statusWord } from '../../../lib/status-words';
import { roomAlertsQuery } from '../api/notifications';

const dateTime: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };
const formatWhen = (iso: string) => new Date(iso).toLocaleString(undefined, dateTime);

/**
 * The room's open alert (issue 21): which devices are not answering and since when, as the alert
 * messages said. Nothing while the room has none; live events keep it current.
 */
export function RoomAlerts({ roomId }: { roomId: string }) {
  const alerts = useQuery(roomAlertsQuery(roomId));
  if (alerts.isError) {
    return <LoadError what="open alerts" error={alerts.error} onRetry={() => alerts.refetch()} />;
  }
  if (!alerts.data?.length) return null;
  return (
    <section aria-labelledby="alerts-heading" className="space-y-2">
      <h2 id="alerts-heading" className="text-lg font-semibold text-slate-900">
        Open alert
      </h2>
      {alerts.data.map((alert) => (
        <AlertCard key={alert.id} alert={alert} />
      ))}
    </section>
  );
}

function AlertCard({ alert }: { alert: OpenAlert }) {
  const n = alert.monitored;
  return (
    <div className="space-y-2 rounded-xl bg-red-50 p-3 ring-1 ring-red-200 ring-inset">
      <p className="flex items-center gap-2 text-sm font-medium text-red-900">
        <BellRing aria-hidden className="h-4 w-4 shrink-0" />
        <span>
          {alert.devices.length} of {n} device{n === 1 ? '' : 's'} not answering since{' '}
          <span className="whitespace-nowrap">{formatWhen(alert.openedAt)}</span>
        </span>
      </p>
      <ul aria-label="Devices in the alert" className="space-y-1">
        {alert.devices.map((d) => (
          <li
            key={d.id}
            className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm text-slate-800"
          >
            <span className="font-medium break-words">
              {d.name}
              {d.address ? <span className="font-normal text-slate-600"> ({d.address})</span> : null}
            </span>
            <span className="text-slate-600">
              {statusWord(d.status)}
              {d.since ? (
                <>
                  {' '}
                  since <span className="whitespace-nowrap">{formatWhen(d.since)}</span>
                </>
              ) : null}
            </span>
          </li>
        ))}
      </ul>
      <IncidentLinks incidents={alert.incidents ?? []} />
    </div>
  );
}

/** The incidents the alert opened in service desks: "AV desk: INC0010001", each a link there. */
export function IncidentLinks({ incidents }: { incidents: readonly IncidentRef[] }) {
  if (incidents.length === 0) return null;
  return (
    <p className="text-sm text-slate-700">
      Incident{incidents.length === 1 ? '' : 's'}:{' '}
      {incidents.map((i, n) => (
        <span key={i.channelId}>
          {n > 0 ? ', ' : ''}
          {i.channelName}{' '}
          <a className="font-medium underline" href={i.url} target="_blank" rel="noreferrer">
            {i.number}
          </a>
          {i.state === 'open' ? '' : ` (${i.state})`}
        </span>
      ))}
    </p>
  );
}
