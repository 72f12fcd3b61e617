import { serviceNowLevels, serviceNowSeverityDefaults } from '@cm/contracts';
import { type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';
import { SelectField } from '../../../components/form/select-field';
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
    {
      name: 'highPriority',
      label: 'Priority when all devices are offline',
      max: 80,
      hint: 'Also when a class is in the room now or soon. Empty: "High"',
    },
    {
      name: 'mediumPriority',
      label: 'Priority when some devices are offline',
      max: 80,
      hint: 'Empty: "Medium"',
    },
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

const levelNames: Record<string, string> = { '1': '1 – High', '2': '2 – Medium', '3': '3 – Low' };

const levelBoxes = [
  {
    name: 'highUrgency',
    label: 'Urgency when all devices are offline',
    default: serviceNowSeverityDefaults.high.urgency,
    hint: 'A class in the room now or soon always gets 1 – High',
  },
  {
    name: 'highImpact',
    label: 'Impact when all devices are offline',
    default: serviceNowSeverityDefaults.high.impact,
  },
  {
    name: 'mediumUrgency',
    label: 'Urgency when some devices are offline',
    default: serviceNowSeverityDefaults.medium.urgency,
  },
  {
    name: 'mediumImpact',
    label: 'Impact when some devices are offline',
    default: serviceNowSeverityDefaults.medium.impact,
  },
] as const;

/** ServiceNow's urgency and impact per severity (it works out the priority from them). */
function ServiceNowLevels<T extends FieldValues>({ form }: { form: Form<T> }) {
  return levelBoxes.map((box) => (
    <SelectField
      key={box.name}
      form={form}
      name={`mapping.${box.name}` as Path<T>}
      label={box.label}
      options={serviceNowLevels}
      labelOf={(v) => levelNames[v]}
      placeholder={`Default: ${levelNames[box.default]}`}
      hint={'hint' in box ? box.hint : undefined}
    />
  ));
}

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
      {sn ? <ServiceNowLevels form={form} /> : null}
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
