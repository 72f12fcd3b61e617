import { useQuery } from '@tanstack/react-query';
import { Activity, ChevronRight, Cpu, Play, RefreshCw, Square } from 'lucide-react';
import { type ReactNode, Suspense } from 'react';
import { Link } from 'wouter';
import { Button } from '../../../components/ui/button';
import { Card, CardTitle } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { Tabs, TabsContent, TabsList, TabsTrigger } from '../../../components/ui/tabs';
import { toast } from '../../../components/ui/use-toast';
import { type MonitoringAction, monitoringStatusQuery, useMonitoringAction } from '../api/monitoring';

// Spec section 8.
const outcomes: Record<MonitoringAction, { done: string; failed: string }> = {
  start: { done: 'Equipment monitoring started', failed: 'Failed to start monitoring' },
  stop: { done: 'Equipment monitoring stopped', failed: 'Failed to stop monitoring' },
  check: { done: 'Equipment check completed', failed: 'Failed to check equipment' },
};

/** Spec section 2: the interval is milliseconds divided by 1000, or N/A. */
export const intervalLabel = (interval: number | null | undefined) =>
  interval ? `${interval / 1000} seconds` : 'N/A';

/**
 * `notifications`, `importExport`, `schedules`: the administrators' tabs, when the user is one.
 * `apiTokens`: the API Tokens tab, for everyone signed in.
 */
export function SettingsPage({
  notifications = null,
  apiTokens = null,
  importExport = null,
  schedules = null,
}: {
  notifications?: ReactNode;
  apiTokens?: ReactNode;
  importExport?: ReactNode;
  schedules?: ReactNode;
}) {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Settings</h1>
      <Tabs defaultValue="monitoring">
        {/* More than three tabs do not fit one row of a phone: rows of three. */}
        <TabsList
          className={
            [notifications, apiTokens, importExport, schedules].filter(Boolean).length > 1
              ? 'grid-flow-row grid-cols-3'
              : undefined
          }
        >
          <TabsTrigger value="monitoring">Monitoring</TabsTrigger>
          {notifications ? <TabsTrigger value="notifications">Notifications</TabsTrigger> : null}
          {apiTokens ? <TabsTrigger value="api-tokens">API Tokens</TabsTrigger> : null}
          {importExport ? <TabsTrigger value="import-export">Import / export</TabsTrigger> : null}
          {schedules ? <TabsTrigger value="class-schedules">Class schedules</TabsTrigger> : null}
          <TabsTrigger value="about">About</TabsTrigger>
        </TabsList>
        <TabsContent value="monitoring" className="space-y-4">
          <MonitoringTab />
          <FleetLink />
        </TabsContent>
        {notifications ? (
          <TabsContent value="notifications">
            <Suspense fallback={<Skeleton className="h-32 w-full" />}>{notifications}</Suspense>
          </TabsContent>
        ) : null}
        {apiTokens ? (
          <TabsContent value="api-tokens">
            <Suspense fallback={<Skeleton className="h-32 w-full" />}>{apiTokens}</Suspense>
          </TabsContent>
        ) : null}
        {importExport ? (
          <TabsContent value="import-export">
            <Suspense fallback={<Skeleton className="h-32 w-full" />}>{importExport}</Suspense>
          </TabsContent>
        ) : null}
        {schedules ? (
          <TabsContent value="class-schedules">
            <Suspense fallback={<Skeleton className="h-32 w-full" />}>{schedules}</Suspense>
          </TabsContent>
        ) : null}
        <TabsContent value="about">
          <AboutTab />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function MonitoringTab() {
  const status = useQuery(monitoringStatusQuery);
  const action = useMonitoringAction();
  const run = (which: MonitoringAction) =>
    action.mutate(which, {
      onSuccess: () => toast({ title: 'Success', description: outcomes[which].done }),
      onError: () => toast({ title: 'Error', description: outcomes[which].failed, variant: 'destructive' }),
    });
  const busy = (which: MonitoringAction) => action.isPending && action.variables === which;

  return (
    <Card className="space-y-4 p-4">
      <CardTitle icon={Activity}>Equipment Monitoring</CardTitle>
      {status.isPending ? (
        <Skeleton className="h-16 w-full" />
      ) : status.isError ? (
        <LoadError what="monitoring status" error={status.error} onRetry={() => status.refetch()} />
      ) : (
        <dl className="grid grid-cols-2 gap-3">
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">Status</dt>
            <dd className="flex items-center gap-2 text-lg font-semibold" data-testid="monitoring-state">
              <span
                aria-hidden
                className={`h-2.5 w-2.5 rounded-full ${status.data.isRunning ? 'bg-green-500' : 'bg-slate-400'}`}
              />
              {status.data.isRunning ? 'Running' : 'Stopped'}
            </dd>
          </div>
          <div className="rounded-lg bg-slate-50 p-3">
            <dt className="text-sm text-slate-600">Interval</dt>
            <dd className="text-lg font-semibold" data-testid="monitoring-interval">
              {intervalLabel(status.data.interval)}
            </dd>
          </div>
        </dl>
      )}
      <div className="grid gap-2">
        <Button onClick={() => run('start')} disabled={action.isPending || status.data?.isRunning === true}>
          <Play aria-hidden className="h-4 w-4" />
          {busy('start') ? 'Starting...' : 'Start Monitoring'}
        </Button>
        <Button
          variant="outline"
          onClick={() => run('stop')}
          disabled={action.isPending || status.data?.isRunning === false}
        >
          <Square aria-hidden className="h-4 w-4" />
          {busy('stop') ? 'Stopping...' : 'Stop Monitoring'}
        </Button>
        <Button variant="secondary" onClick={() => run('check')} disabled={action.isPending}>
          <RefreshCw aria-hidden className={`h-4 w-4 ${busy('check') ? 'animate-spin' : ''}`} />
          {busy('check') ? 'Checking...' : 'Check Now'}
        </Button>
      </div>
      <p className="text-sm text-slate-600">
        While monitoring runs, equipment status is updated every 30 seconds by pinging each device&apos;s IP
        address. Check Now pings every device once without starting or stopping monitoring.
      </p>
    </Card>
  );
}

/** The Device fleet screen: firmware per model, restarts, consumables. */
function FleetLink() {
  return (
    <Card className="p-0">
      <Link
        href="/settings/fleet"
        className="flex min-h-16 items-center gap-3 rounded-xl p-4 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-brand-600"
      >
        <Cpu aria-hidden className="h-5 w-5 shrink-0 text-brand-700" />
        <span className="min-w-0 flex-1">
          <span className="block text-lg font-semibold text-slate-900">Device Fleet</span>
          <span className="block text-sm text-slate-600">
            Firmware by model, restarts in the last day, lamps and filters to order
          </span>
        </span>
        <ChevronRight aria-hidden className="h-5 w-5 shrink-0 text-slate-400" />
      </Link>
    </Card>
  );
}

function AboutTab() {
  return (
    <Card className="space-y-3 p-4 text-slate-700">
      <h2 className="text-lg font-semibold text-slate-900">Classroom Monitor</h2>
      <p>
        A classroom technology tracking and inventory app for the campus's facilities and technology staff,
        with:
      </p>
      <ul className="list-disc space-y-1 pl-5">
        <li>Building and room management</li>
        <li>Equipment tracking with status monitoring</li>
        <li>Image uploads</li>
        <li>Automatic ping-based status checks</li>
        <li>A mobile-optimised interface</li>
      </ul>
    </Card>
  );
}
