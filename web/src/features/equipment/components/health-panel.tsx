import { type DeviceHealth, type Lamp, type ProbeView } from '@cm/contracts';
import { type ReactNode, useId } from 'react';
import { HealthBadge } from '../../../components/health/health-badge';
import { cn } from '../../../lib/cn';
import { useNow } from '../../../lib/use-now';
import {
  calendarDay,
  hoursText,
  lampHoursText,
  lampUsedPercent,
  powerLabels,
  restartedRecently,
} from '../lib/health-text';
import { probeTypeLabels } from '../lib/probe-form';
import { timeAgo } from '../../../lib/time';
import { FactList } from './fact-list';

const exact = (iso: string) => new Date(iso).toLocaleString();

/**
 * What the device's probe last read: its state in words, the reasons, power, lamps against their
 * rated life, filter, input, model, serial and firmware, and when. Nothing for equipment only
 * pinged that has no reading (its details name the probe type).
 */
export function HealthPanel({ probe, health }: { probe?: ProbeView; health?: DeviceHealth | null }) {
  const headingId = useId();
  const type = probe?.type ?? 'icmp';
  if (!health && type === 'icmp') return null;
  return (
    <section aria-labelledby={headingId} className="space-y-3" data-testid="health-panel">
      <div className="flex items-center justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900">
          Device Health
        </h3>
        {health ? <HealthBadge state={health.state} /> : null}
      </div>
      {health ? (
        <HealthReading health={health} probeLabel={probeTypeLabels[type]} />
      ) : (
        <p className="text-sm text-slate-600">
          Not read yet: the {probeTypeLabels[type]} probe has not answered since it was set.
        </p>
      )}
    </section>
  );
}

function HealthReading({ health, probeLabel }: { health: DeviceHealth; probeLabel: string }) {
  const now = useNow(60_000);
  const rows: [string, ReactNode][] = [];
  if (health.power) rows.push(['Power', powerLabels[health.power]]);
  const lamps = health.lamps ?? [];
  lamps.forEach((lamp, i) => {
    const name = lamps.length === 1 ? 'Lamp' : `Lamp ${i + 1}`;
    // The forecast is the busiest lamp's: said once, after the last.
    const replaceBy = i === lamps.length - 1 ? health.lampReplaceBy : undefined;
    rows.push([name, <LampLife key={name} lamp={lamp} name={name} replaceBy={replaceBy} />]);
  });
  if (health.filterHours !== undefined) rows.push(['Filter', hoursText(health.filterHours)]);
  if (health.input) rows.push(['Input', health.input]);
  if (health.model) rows.push(['Model', health.model]);
  if (health.serial) rows.push(['Serial', health.serial]);
  if (health.firmware) rows.push(['Firmware', health.firmware]);
  if (health.rebootedAt && restartedRecently(health.rebootedAt, now)) {
    rows.push(['Restarted', <When key="restarted" at={health.rebootedAt} now={now} />]);
  }
  return (
    <>
      {health.reasons.length > 0 ? (
        <ul className="list-disc space-y-1 pl-5 text-sm text-slate-900" aria-label="Reasons">
          {health.reasons.map((reason, i) => (
            <li key={i}>{reason}</li>
          ))}
        </ul>
      ) : null}
      {rows.length > 0 ? <FactList rows={rows} /> : null}
      <p className="text-xs text-slate-600">
        {probeLabel}, read <When at={health.checkedAt} now={now} />
      </p>
    </>
  );
}

function When({ at, now }: { at: string; now: number }) {
  return (
    <time dateTime={at} title={exact(at)}>
      {timeAgo(Date.parse(at), now)}
    </time>
  );
}

/** A lamp's hours as a bar against its rated life, or its hours alone when the life is unknown. */
function LampLife({ lamp, name, replaceBy }: { lamp: Lamp; name: string; replaceBy?: string }) {
  const used = lampUsedPercent(lamp);
  return (
    <span className="block space-y-1">
      <span className="block">
        {lampHoursText(lamp)}, {lamp.on ? 'on' : 'off'}
      </span>
      {used === undefined ? null : (
        <span
          role="progressbar"
          aria-label={`${name} life used`}
          aria-valuemin={0}
          aria-valuemax={lamp.ratedHours}
          aria-valuenow={Math.min(lamp.hours, lamp.ratedHours ?? lamp.hours)}
          aria-valuetext={lampHoursText(lamp)}
          className="block h-2.5 overflow-hidden rounded-full bg-slate-200"
        >
          <span
            className={cn(
              'block h-full',
              used >= 100 ? 'bg-red-600' : used >= 90 ? 'bg-amber-500' : 'bg-green-600',
            )}
            style={{ width: `${used}%` }}
          />
        </span>
      )}
      {replaceBy ? <span className="block text-slate-700">Replace by {calendarDay(replaceBy)}</span> : null}
    </span>
  );
}
