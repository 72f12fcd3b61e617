import { Plus, Trash2 } from 'lucide-react';
import { type KeyboardEvent, useId, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { Input, Textarea } from '../../../components/ui/input';
import { Select } from '../../../components/ui/select';
import {
  addField,
  canAddField,
  type ConnectionField,
  type ConnectionFieldType,
} from '../lib/connection-fields';

const fieldTypes: readonly ConnectionFieldType[] = ['text', 'textarea'];
const typeLabel = (t: string) => (t === 'textarea' ? 'Long text' : 'Short text');

/**
 * Spec section 2: connection details a person notes while in the room. They live on this
 * screen only and are gone when it is left; the spec saves them nowhere.
 */
export function ConnectionDetails() {
  const nameId = useId();
  const nextId = useRef(1);
  const [fields, setFields] = useState<readonly ConnectionField[]>([]);
  const [name, setName] = useState('');
  const [type, setType] = useState<ConnectionFieldType>('text');

  const add = () => {
    if (!canAddField(name)) return;
    setFields((current) => addField(current, name, type, `field-${nextId.current++}`));
    setName('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    add();
  };
  const update = (id: string, change: Partial<ConnectionField>) =>
    setFields((current) => current.map((f) => (f.id === id ? { ...f, ...change } : f)));

  return (
    <section aria-labelledby="connection-heading" className="space-y-3">
      <div>
        <h2 id="connection-heading" className="text-lg font-semibold text-slate-900">
          Connection Details
        </h2>
        <p className="text-sm text-slate-600">Notes for this visit only: they are not saved.</p>
      </div>
      {fields.length > 0 ? (
        <ul className="space-y-2">
          {fields.map((field) => (
            <li key={field.id}>
              <FieldCard
                field={field}
                onChange={(change) => update(field.id, change)}
                onRemove={() => setFields((current) => current.filter((f) => f.id !== field.id))}
              />
            </li>
          ))}
        </ul>
      ) : null}
      <Card className="space-y-2 p-3">
        <label htmlFor={nameId} className="block text-sm font-medium text-slate-800">
          New field name
        </label>
        <Input
          id={nameId}
          placeholder="e.g. Projector HDMI port"
          value={name}
          onChange={(e) => setName(e.target.value)}
          onKeyDown={onKeyDown}
        />
        <div className="flex gap-2">
          <div className="min-w-0 flex-1">
            <Select
              aria-label="Field type"
              value={type}
              onValueChange={(v) => setType(v as ConnectionFieldType)}
              options={fieldTypes}
              labelOf={typeLabel}
              placeholder="Field type"
            />
          </div>
          <Button onClick={add} disabled={!canAddField(name)}>
            <Plus aria-hidden className="h-4 w-4" />
            Add
          </Button>
        </div>
      </Card>
    </section>
  );
}

/** One noted field: its value, additional info, and a button to remove it. */
function FieldCard({
  field,
  onChange,
  onRemove,
}: {
  field: ConnectionField;
  onChange: (change: Partial<ConnectionField>) => void;
  onRemove: () => void;
}) {
  return (
    <Card className="space-y-2 p-3" data-testid="connection-field">
      <div className="flex items-center justify-between gap-2">
        <label htmlFor={`${field.id}-value`} className="min-w-0 font-medium break-words text-slate-900">
          {field.label}
        </label>
        <Button
          variant="ghost"
          size="icon"
          className="text-red-600 hover:bg-red-50"
          aria-label={`Remove ${field.label}`}
          onClick={onRemove}
        >
          <Trash2 aria-hidden className="h-5 w-5" />
        </Button>
      </div>
      {field.type === 'textarea' ? (
        <Textarea
          id={`${field.id}-value`}
          rows={3}
          placeholder="Value"
          value={field.value}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      ) : (
        <Input
          id={`${field.id}-value`}
          placeholder="Value"
          value={field.value}
          onChange={(e) => onChange({ value: e.target.value })}
        />
      )}
      <Input
        aria-label={`${field.label} additional info`}
        placeholder="Additional info"
        value={field.additionalInfo}
        onChange={(e) => onChange({ additionalInfo: e.target.value })}
      />
    </Card>
  );
}
