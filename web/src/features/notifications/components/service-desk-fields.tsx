import { type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { TextField } from '../../../components/form/text-field';

type Form<T extends FieldValues> = Pick<
  UseFormReturn<T, unknown, unknown>,
  'control' | 'register' | 'clearErrors' | 'formState' | 'getFieldState'
>;

type DeskType = 'servicenow' | 'jira-service-management';

interface Box {
  name: string;
  label: string;
  max: number | undefined;
  hint: string;
  multiline?: true;
}

/** The mapping's boxes of each service desk; empty ones take the stock instance's defaults. */
const mappingBoxes: Record<DeskType, Box[]> = {
  servicenow: [
    {
      name: 'assignmentGroup',
      label: 'Assignment group',
      max: 200,
      hint: "Optional: a group's name or sys_id",
    },
    { name: 'callerId', label: 'Caller', max: 200, hint: "Optional: a user's name or sys_id" },
    { name: 'category', label: 'Category', max: 200, hint: 'Optional' },
    { name: 'resolveState', label: 'Resolve state', max: 40, hint: 'Empty: 6 (Resolved)' },
    { name: 'closeCode', label: 'Close code', max: 80, hint: 'Empty: "Solution provided"' },
    {
      name: 'closeNotes',
      label: 'Close notes',
      max: 4000,
      hint: 'Empty: a sentence saying the room answers again',
      multiline: true,
    },
  ],
  'jira-service-management': [
    { name: 'projectKey', label: 'Project key', max: 20, hint: 'The service project, such as AV' },
    { name: 'issueType', label: 'Work type', max: 80, hint: 'Empty: "[System] Incident"' },
    { name: 'resolveTransition', label: 'Resolve transition', max: 80, hint: 'Empty: "Resolve"' },
    {
      name: 'closeNotes',
      label: 'Closing comment',
      max: 4000,
      hint: 'Empty: a sentence saying the room answers again',
      multiline: true,
    },
  ],
};

const extraBoxes: Box[] = [
  {
    name: 'createFields',
    label: 'Extra fields on create',
    max: undefined,
    hint: 'Optional JSON, such as {"u_building": "Science Hall"}',
    multiline: true,
  },
  {
    name: 'resolveFields',
    label: 'Extra fields on resolve',
    max: undefined,
    hint: 'Optional JSON: what the instance makes mandatory to resolve',
    multiline: true,
  },
];

/**
 * A service desk's fields: the integration user, its password (ServiceNow) or API token (Jira),
 * write-only, and how alerts are written there (docs/operations.md).
 */
export function ServiceDeskFields<T extends FieldValues>({
  form,
  type,
  editing,
}: {
  form: Form<T>;
  type: DeskType;
  editing: boolean;
}) {
  const field = (name: string) => name as Path<T>;
  const sn = type === 'servicenow';
  return (
    <>
      <TextField
        form={form}
        name={field('username')}
        label={sn ? 'Integration user' : 'Account e-mail'}
        max={200}
        hint={sn ? 'A ServiceNow user with the itil role' : 'The Atlassian account the API token belongs to'}
        autoComplete="off"
      />
      <TextField
        form={form}
        name={field(sn ? 'password' : 'token')}
        label={sn ? 'Password' : 'API token'}
        max={sn ? 500 : 2000}
        hint={editing ? 'Leave empty to keep the current one' : 'Kept sealed; never shown again'}
        type="password"
        autoComplete="new-password"
      />
      {[...mappingBoxes[type], ...extraBoxes].map((box) => (
        <TextField
          key={box.name}
          form={form}
          name={field(`mapping.${box.name}`)}
          label={box.label}
          max={box.max}
          hint={box.hint}
          multiline={box.multiline}
          rows={box.multiline ? 2 : undefined}
        />
      ))}
    </>
  );
}
