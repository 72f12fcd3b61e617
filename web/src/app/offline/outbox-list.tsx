import { useLocation } from 'wouter';
import { Button } from '../../components/ui/button';
import { writeDraft } from '../../lib/offline/drafts';
import { requestForm } from '../../lib/offline/requested-form';
import { actionOf, type OutboxEntry } from '../../lib/offline/outbox';
import { discard, flush, mergeableFields, resolveConflict } from '../../lib/offline/outbox-store';

/** The changes kept on the phone, in the order they go; each one that needs a decision offers it. */
export function OutboxList({ entries, onOpenForm }: { entries: OutboxEntry[]; onOpenForm: () => void }) {
  const [, navigate] = useLocation();
  const backToForm = async (entry: OutboxEntry) => {
    if (!entry.form) return;
    writeDraft(entry.form.draftKey, entry.body, entry.reason);
    await discard(entry.key);
    requestForm(entry.form.draftKey);
    onOpenForm();
    navigate(entry.form.path);
  };
  return (
    <div className="space-y-3">
      <ol className="space-y-3">
        {entries.map((entry) => (
          <li key={entry.key} className="rounded-xl border border-slate-200 p-3 text-sm">
            <p className="font-medium text-slate-900">{entry.label}</p>
            {entry.state === 'waiting' ? <p className="text-slate-600">Waiting to be sent</p> : null}
            {entry.state === 'refused' ? (
              <>
                <p role="alert" className="text-red-700">
                  Refused: {entry.reason}
                </p>
                <div className="mt-2 flex gap-2">
                  {entry.form ? <Button onClick={() => void backToForm(entry)}>Open the form</Button> : null}
                  <Button variant="outline" onClick={() => void discard(entry.key)}>
                    Discard
                  </Button>
                </div>
              </>
            ) : null}
            {entry.state === 'conflict' && actionOf(entry) === 'delete' ? (
              <DeleteConflict entry={entry} />
            ) : null}
            {entry.state === 'conflict' && actionOf(entry) !== 'delete' ? <Conflict entry={entry} /> : null}
          </li>
        ))}
      </ol>
      <Button variant="outline" className="w-full" onClick={() => void flush()}>
        Send now
      </Button>
    </div>
  );
}

const shown = (value: unknown) =>
  value === null || value === undefined || value === '' ? '—' : String(value);

/** Both versions of the fields the edit changed that the server has otherwise, and the choices. */
function Conflict({ entry }: { entry: OutboxEntry }) {
  const current = entry.current ?? {};
  // A picture kept on the phone is a file here, not yet a url: it is named by its file; a removed
  // one is said so, rather than shown as an empty field.
  const picture = entry.file || actionOf(entry) === 'remove' ? (entry.params.field ?? 'imageUrl') : undefined;
  const yours = picture
    ? { ...entry.body, [picture]: entry.file ? `New picture: ${entry.file.name}` : 'Removed' }
    : entry.body;
  const fields = Object.keys(yours).filter(
    (field) =>
      field === picture ||
      (field in current && JSON.stringify(current[field] ?? null) !== JSON.stringify(yours[field] ?? null)),
  );
  const mergeable = fields.some((f) => (mergeableFields as readonly string[]).includes(f));
  return (
    <div className="mt-1 space-y-2">
      <p className="text-red-700">{entry.reason}</p>
      <table className="w-full table-fixed text-left">
        <thead>
          <tr className="text-slate-600">
            <th className="w-1/4 font-medium">Field</th>
            <th className="font-medium">Yours</th>
            <th className="font-medium">On the server</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field} className="align-top">
              <td className="break-words text-slate-600">{field}</td>
              <td className="break-words whitespace-pre-line">{shown(yours[field])}</td>
              <td className="break-words whitespace-pre-line">{shown(current[field])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap gap-2">
        <Button onClick={() => void resolveConflict(entry.key, 'mine')}>Keep mine</Button>
        <Button variant="outline" onClick={() => void resolveConflict(entry.key, 'theirs')}>
          Keep the server&apos;s
        </Button>
        {mergeable ? (
          <Button variant="outline" onClick={() => void resolveConflict(entry.key, 'merge')}>
            Merge notes
          </Button>
        ) : null}
      </div>
    </div>
  );
}

/** The fields a person recognises a record by, as the server has it now. */
const describedFields = ['name', 'description', 'type', 'floor', 'status', 'notes'] as const;

/**
 * A delete of a record someone changed after the person chose to delete it: what it is now, and
 * the choice to delete it all the same or to keep it.
 */
function DeleteConflict({ entry }: { entry: OutboxEntry }) {
  const current = entry.current ?? {};
  const rows = describedFields.filter((field) => current[field] !== undefined && current[field] !== null);
  return (
    <div className="mt-1 space-y-2">
      <p className="text-red-700">
        Changed on the server after you chose to delete it. Delete it anyway, or keep it as it is now?
      </p>
      <table className="w-full table-fixed text-left">
        <tbody>
          {rows.map((field) => (
            <tr key={field} className="align-top">
              <td className="w-1/3 break-words text-slate-600">{field}</td>
              <td className="break-words whitespace-pre-line">{shown(current[field])}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="flex flex-wrap gap-2">
        <Button variant="destructive" onClick={() => void resolveConflict(entry.key, 'mine')}>
          Delete anyway
        </Button>
        <Button variant="outline" onClick={() => void resolveConflict(entry.key, 'theirs')}>
          Keep it
        </Button>
      </div>
    </div>
  );
}
