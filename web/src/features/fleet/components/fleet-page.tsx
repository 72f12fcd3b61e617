import { type Fleet, type FleetDevice } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useQuery } from '@tanstack/react-query';
import { Cpu, Download, RotateCcw } from 'lucide-react';
import { type ReactNode, useId } from 'react';
import { Link } from 'wouter';
import { buttonClass } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { timeAgo } from '../../../lib/time';
import { useNow } from '../../../lib/use-now';
import { fleetQuery } from '../api/fleet';

const devices = (n: number) => `${n} ${n === 1 ? 'device' : 'devices'}`;

/**
 * Settings' Device fleet: firmware versions per model and the devices not on the newest, the
 * devices that restarted in the last day, and the consumables report.
 */
export function FleetPage() {
  const fleet = useQuery(fleetQuery);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Device Fleet</h1>
      <ConsumablesCard />
      {fleet.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading the device fleet" className="space-y-3">
          <Skeleton className="h-32 w-full rounded-xl" />
          <Skeleton className="h-24 w-full rounded-xl" />
        </div>
      ) : fleet.isError ? (
        <LoadError what="device fleet" error={fleet.error} onRetry={() => fleet.refetch()} />
      ) : (
        <>
          <FirmwareSection models={fleet.data.models} />
          <RestartedSection rebooted={fleet.data.rebooted} />
        </>
      )}
    </div>
  );
}

function ConsumablesCard() {
  return (
    <Card className="space-y-3 p-4">
      <p className="text-sm text-slate-700">
        Every lamp and filter with its hours, rated life, replacement model and the day it is forecast to need
        replacing, to order before it runs out.
      </p>
      {/* The server streams the file and names it. */}
      <a
        className={buttonClass({ variant: 'outline', className: 'w-full' })}
        href={apiRoutes.consumablesReportCsv.path}
        download
      >
        <Download aria-hidden className="h-4 w-4" />
        Download consumables (CSV)
      </a>
    </Card>
  );
}

function FirmwareSection({ models }: { models: Fleet['models'] }) {
  return (
    <section className="space-y-3" aria-labelledby="firmware-heading">
      <h2 id="firmware-heading" className="text-lg font-semibold text-slate-900">
        Firmware by Model
      </h2>
      {models.length === 0 ? (
        <Card className="p-6 text-center text-slate-600">
          No device reports firmware yet — add a PJLink, SNMP, Q-SYS or Extron probe to a device
        </Card>
      ) : (
        models.map((model) => <ModelCard key={model.model} model={model} />)
      )}
    </section>
  );
}

function ModelCard({ model }: { model: Fleet['models'][number] }) {
  const headingId = useId();
  return (
    <Card className="space-y-3 p-4" role="group" aria-labelledby={headingId} data-testid="fleet-model">
      <div className="space-y-0.5">
        <h3 id={headingId} className="font-semibold break-words text-slate-900">
          {model.model}
        </h3>
        <p className="text-sm text-slate-600">Newest firmware: {model.newestFirmware}</p>
      </div>
      <ul className="divide-y divide-slate-100 text-sm" aria-label={`Firmware versions of ${model.model}`}>
        {model.versions.map((v) => (
          <li key={v.firmware} className="flex items-baseline justify-between gap-3 py-1.5">
            <span className="font-mono break-all text-slate-900">
              {v.firmware}
              {v.firmware === model.newestFirmware ? (
                <span className="ml-2 font-sans text-xs text-green-800">newest</span>
              ) : null}
            </span>
            <span className="shrink-0 text-slate-700">{devices(v.devices)}</span>
          </li>
        ))}
      </ul>
      {model.behind.length === 0 ? (
        <p className="text-sm text-slate-600">Every device is on the newest firmware.</p>
      ) : (
        <div className="space-y-1.5">
          <h4 className="text-sm font-semibold text-slate-900">
            Not on {model.newestFirmware} ({devices(model.behind.length)})
          </h4>
          <DeviceList
            devices={model.behind}
            detail={(d) => <span className="font-mono">{d.firmware ?? 'not read'}</span>}
          />
        </div>
      )}
    </Card>
  );
}

function RestartedSection({ rebooted }: { rebooted: Fleet['rebooted'] }) {
  const now = useNow(60_000);
  return (
    <Card className="space-y-3 p-4" data-testid="fleet-restarted">
      <CardTitle icon={RotateCcw}>Restarted in the last 24 hours</CardTitle>
      {rebooted.length === 0 ? (
        <p className="text-sm text-slate-600">No device restarted in the last 24 hours.</p>
      ) : (
        <DeviceList
          devices={rebooted}
          detail={(d) => (
            <time dateTime={d.rebootedAt} title={new Date(d.rebootedAt).toLocaleString()}>
              {timeAgo(Date.parse(d.rebootedAt), now)}
            </time>
          )}
        />
      )}
    </Card>
  );
}

/** Devices by name, each with its room and building, and a detail (its firmware, its restart). */
function DeviceList<D extends FleetDevice>({
  devices: list,
  detail,
}: {
  devices: D[];
  detail: (device: D) => ReactNode;
}) {
  return (
    <ul className="divide-y divide-slate-100 text-sm" data-testid="fleet-devices">
      {list.map((d) => (
        <li key={d.equipmentId} className="flex items-start gap-3 py-2">
          <Cpu aria-hidden className="mt-3.5 h-4 w-4 shrink-0 text-slate-600" />
          <span className="min-w-0 flex-1">
            <Link
              href={`/rooms/${d.roomId}`}
              className="flex min-h-11 items-center font-medium break-words text-brand-700 underline-offset-2 hover:underline"
            >
              {d.name}
            </Link>
            <span className="block break-words text-slate-600">
              {d.roomName} · {d.buildingName}
            </span>
          </span>
          <span className="shrink-0 pt-3 text-right text-slate-900">{detail(d)}</span>
        </li>
      ))}
    </ul>
  );
}
