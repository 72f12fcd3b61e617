import { type UptimeReport, uptimeCsvFileName } from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { useQuery } from '@tanstack/react-query';
import { Building2, CircleCheck, CircleX, Download, Monitor } from 'lucide-react';
import { type ReactNode } from 'react';
import { buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { LoadError } from '../../../components/ui/load-error';
import { Skeleton } from '../../../components/ui/skeleton';
import { uptimeReportQuery } from '../api/uptime-report';

export function ReportsPage() {
  const report = useQuery(uptimeReportQuery);
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold text-slate-900">Reports</h1>
      {report.isPending ? (
        <div role="status" aria-busy="true" aria-label="Loading report" className="grid grid-cols-2 gap-3">
          {Array.from({ length: 4 }, (_, i) => (
            <Skeleton key={i} className="h-24 rounded-xl" />
          ))}
        </div>
      ) : report.isError ? (
        <LoadError what="report" error={report.error} onRetry={() => report.refetch()} />
      ) : (
        <ReportBody report={report.data} />
      )}
    </div>
  );
}

function ReportBody({ report }: { report: UptimeReport }) {
  const share = report.overallUptimePercent.toFixed(1);
  return (
    <>
      <div className="grid grid-cols-2 gap-3">
        <StatTile icon={<Building2 aria-hidden className="h-5 w-5 text-brand-700" />} label="Buildings">
          {report.buildings}
        </StatTile>
        <StatTile icon={<Monitor aria-hidden className="h-5 w-5 text-brand-700" />} label="Total Equipment">
          {report.totalEquipment}
        </StatTile>
        <StatTile icon={<CircleCheck aria-hidden className="h-5 w-5 text-green-600" />} label="Online">
          {report.online}
        </StatTile>
        <StatTile icon={<CircleX aria-hidden className="h-5 w-5 text-red-600" />} label="Offline">
          {report.offline}
        </StatTile>
      </div>
      <p className="text-sm text-slate-600">
        Online counts equipment whose status is Active; Offline, equipment whose status is Inactive. Equipment
        in maintenance or partly answering is in neither.
      </p>
      <Card className="space-y-2 p-4">
        <div className="flex items-baseline justify-between gap-2">
          <h2 className="font-semibold text-slate-900">System Uptime</h2>
          <span className="text-lg font-bold text-slate-900" data-testid="system-uptime">
            {share}%
          </span>
        </div>
        <div
          role="progressbar"
          aria-label="System Uptime"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={report.overallUptimePercent}
          aria-valuetext={`${share}% of equipment online`}
          className="h-3 overflow-hidden rounded-full bg-slate-200"
        >
          <div className="h-full bg-green-500" style={{ width: `${report.overallUptimePercent}%` }} />
        </div>
        <p className="text-xs text-slate-600">Share of all equipment that is online now.</p>
      </Card>
      <Card className="space-y-3 p-4">
        <h2 className="font-semibold text-slate-900">Uptime Report</h2>
        <p className="text-sm text-slate-600">
          Each equipment&apos;s uptime over the last {report.windowHours / 24} days, from its recorded status
          changes, as a CSV file.
        </p>
        {/* The server streams the file: a campus's report is too large to build in a phone's memory. */}
        <a
          className={buttonClass({ className: 'w-full' })}
          href={apiRoutes.uptimeReportCsv.path}
          download={uptimeCsvFileName(new Date())}
        >
          <Download aria-hidden className="h-4 w-4" />
          Download Uptime Report
        </a>
      </Card>
    </>
  );
}

function StatTile({ icon, label, children }: { icon: ReactNode; label: string; children: ReactNode }) {
  return (
    <Card className="space-y-1 p-4" data-testid="stat-tile">
      <span className="flex items-center gap-1.5 text-sm text-slate-600">
        {icon}
        {label}
      </span>
      <span className="block text-3xl font-bold text-slate-900">{children}</span>
    </Card>
  );
}
