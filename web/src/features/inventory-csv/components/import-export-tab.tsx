import {
  type ImportAnswer,
  type ImportCounts,
  inventoryExportFileName,
  MAX_IMPORT_ROWS,
} from '@cm/contracts';
import { apiRoutes } from '../../../lib/api-routes';
import { Download, FileUp, Upload } from 'lucide-react';
import { useId, useState } from 'react';
import { Button, buttonClass } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { toast } from '../../../components/ui/use-toast';
import { errorMessage } from '../../../lib/api';
import { useImportInventory } from '../api/import-inventory';

/** Errors listed on screen; the rest are counted. */
const ERRORS_SHOWN = 10;

/** Settings → Import / export (administrators): the whole inventory as a CSV, out and in. */
export function ImportExportTab() {
  return (
    <div className="space-y-4">
      <Card className="space-y-3 p-4">
        <h2 className="text-lg font-semibold text-slate-900">Export</h2>
        <p className="text-sm text-slate-600">
          Every building, room and equipment with all their fields, one line per equipment. Edit it in a
          spreadsheet and import it again: what did not change stays as it is.
        </p>
        {/* Streamed by the server: a campus is too large to build in a phone's memory. */}
        <a
          className={buttonClass({ variant: 'outline', className: 'w-full' })}
          href={apiRoutes.exportInventory.path}
          download={inventoryExportFileName(new Date())}
        >
          <Download aria-hidden className="h-4 w-4" />
          Download the export
        </a>
      </Card>
      <ImportCard />
    </div>
  );
}

function ImportCard() {
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportAnswer | null>(null);
  const [applied, setApplied] = useState<ImportAnswer | null>(null);
  const mutation = useImportInventory();

  const pick = (picked: File | undefined) => {
    setFile(picked ?? null);
    setPreview(null);
    setApplied(null);
    mutation.reset();
    if (picked) mutation.mutate({ file: picked, dryRun: true }, { onSuccess: setPreview });
  };
  const confirm = () => {
    if (!file) return;
    mutation.mutate(
      { file, dryRun: false },
      {
        onSuccess: (answer) => {
          setApplied(answer);
          setPreview(null);
          toast({ title: 'Success', description: 'Inventory imported successfully' });
        },
        onError: () =>
          toast({ title: 'Error', description: 'Failed to import the inventory', variant: 'destructive' }),
      },
    );
  };
  const previewing = mutation.isPending && mutation.variables?.dryRun;
  const importing = mutation.isPending && !mutation.variables?.dryRun;

  return (
    <Card className="space-y-3 p-4">
      <h2 className="text-lg font-semibold text-slate-900">Import</h2>
      <p className="text-sm text-slate-600">
        A CSV file in the export&apos;s columns, up to {MAX_IMPORT_ROWS.toLocaleString('en-US')} lines.
        Buildings are matched by name, rooms by name within their building, equipment by serial number or else
        by name within its room. You see what would change before anything does.
      </p>
      <CsvFilePicker file={file} disabled={mutation.isPending} onPick={pick} />
      {previewing ? <p className="text-sm text-slate-600">Reading the file…</p> : null}
      {mutation.isError ? (
        <p role="alert" className="text-sm text-red-600">
          {errorMessage(mutation.error)}
        </p>
      ) : null}
      {preview ? <Summary answer={preview} /> : null}
      {preview ? (
        <Button className="w-full" onClick={confirm} disabled={importing || preview.errorCount > 0}>
          <Upload aria-hidden className="h-4 w-4" />
          {importing ? 'Importing...' : 'Import'}
        </Button>
      ) : null}
      {applied ? <Summary answer={applied} /> : null}
    </Card>
  );
}

/** The file input, shown as a drop-zone-like label with the chosen file's name. */
function CsvFilePicker({
  file,
  disabled,
  onPick,
}: {
  file: File | null;
  disabled: boolean;
  onPick: (picked: File | undefined) => void;
}) {
  const inputId = useId();
  return (
    <>
      <label
        htmlFor={inputId}
        className="flex min-h-12 cursor-pointer items-center gap-2 rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600"
      >
        <FileUp aria-hidden className="h-5 w-5 text-brand-700" />
        {file ? (
          <span className="font-medium break-all text-slate-900">{file.name}</span>
        ) : (
          'Choose a CSV file'
        )}
      </label>
      <input
        id={inputId}
        type="file"
        accept=".csv,text/csv"
        className="sr-only"
        aria-label="Choose a CSV file"
        disabled={disabled}
        onChange={(e) => {
          onPick(e.target.files?.[0]);
          // The same file picked again (after editing it) is read again.
          e.target.value = '';
        }}
      />
    </>
  );
}

const kinds = [
  ['Buildings', 'buildings'],
  ['Rooms', 'rooms'],
  ['Equipment', 'equipment'],
] as const;

function Summary({ answer }: { answer: ImportAnswer }) {
  const title = answer.applied
    ? `Imported ${answer.rows.toLocaleString('en-US')} lines`
    : `Preview of ${answer.rows.toLocaleString('en-US')} lines`;
  return (
    <section aria-label={answer.applied ? 'Import result' : 'Import preview'} className="space-y-3">
      <h3 className="font-semibold text-slate-900">{title}</h3>
      <table className="w-full text-sm">
        <thead>
          <tr className="text-left text-slate-600">
            <th scope="col" className="font-medium">
              &nbsp;
            </th>
            <th scope="col" className="font-medium">
              {answer.applied ? 'Created' : 'To create'}
            </th>
            <th scope="col" className="font-medium">
              {answer.applied ? 'Updated' : 'To update'}
            </th>
            <th scope="col" className="font-medium">
              Unchanged
            </th>
          </tr>
        </thead>
        <tbody>
          {kinds.map(([label, key]) => (
            <CountsRow key={key} label={label} counts={answer[key]} />
          ))}
        </tbody>
      </table>
      {answer.errorCount > 0 ? (
        <div role="alert" className="space-y-1 text-sm text-red-700">
          <p className="font-medium">
            {answer.errorCount.toLocaleString('en-US')} error{answer.errorCount === 1 ? '' : 's'}: correct the
            file and choose it again. Nothing is imported while it has errors.
          </p>
          <ul className="list-disc space-y-1 pl-5" data-testid="import-errors">
            {answer.errors.slice(0, ERRORS_SHOWN).map((e) => (
              <li key={`${e.line}-${e.column}-${e.message}`}>{e.message}</li>
            ))}
          </ul>
          {answer.errorCount > ERRORS_SHOWN ? (
            <p>and {(answer.errorCount - ERRORS_SHOWN).toLocaleString('en-US')} more.</p>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}

function CountsRow({ label, counts }: { label: string; counts: ImportCounts }) {
  return (
    <tr data-testid={`import-counts-${label.toLowerCase()}`}>
      <th scope="row" className="py-1 text-left font-medium text-slate-900">
        {label}
      </th>
      <td>{counts.create.toLocaleString('en-US')}</td>
      <td>{counts.update.toLocaleString('en-US')}</td>
      <td>{counts.unchanged.toLocaleString('en-US')}</td>
    </tr>
  );
}
