import {
  type Channel,
  type ChannelCreateInput,
  type ChannelType,
  jiraPriorityDefaults,
  serviceNowSeverityDefaults,
} from '@cm/contracts';
import { z } from 'zod';

/** The mapping's boxes, as typed (the extra fields as JSON); empty ones take the server's defaults. */
export const deskMappingFormSchema = z.object({
  assignmentGroup: z.string(),
  callerId: z.string(),
  category: z.string(),
  resolveState: z.string(),
  closeCode: z.string(),
  closeNotes: z.string(),
  projectKey: z.string(),
  issueType: z.string(),
  resolveTransition: z.string(),
  createFields: z.string(),
  resolveFields: z.string(),
  /** ServiceNow's urgency and impact per severity ('' until chosen: the defaults). */
  highUrgency: z.string(),
  highImpact: z.string(),
  mediumUrgency: z.string(),
  mediumImpact: z.string(),
  /** Jira's priority names per severity. */
  highPriority: z.string(),
  mediumPriority: z.string(),
});
export type DeskMappingForm = z.infer<typeof deskMappingFormSchema>;

const serviceNowKeys = [
  'assignmentGroup',
  'callerId',
  'category',
  'resolveState',
  'closeCode',
  'closeNotes',
] as const;
const jiraKeys = ['projectKey', 'issueType', 'resolveTransition', 'closeNotes'] as const;

const text = (value: unknown) => (typeof value === 'string' ? value : '');
const json = (value: unknown) =>
  value && typeof value === 'object' && Object.keys(value).length > 0 ? JSON.stringify(value, null, 2) : '';

type Levels = Partial<Record<'high' | 'medium', { urgency?: unknown; impact?: unknown }>>;

/** The boxes of a channel's mapping (empty for a new channel). */
export function deskMappingValues(channel?: Channel): DeskMappingForm {
  const m = (channel?.mapping ?? {}) as Record<string, unknown>;
  const severity = (m.severity ?? {}) as Levels;
  const priority = (m.priority ?? {}) as Partial<Record<'high' | 'medium', unknown>>;
  return {
    highUrgency: text(severity.high?.urgency),
    highImpact: text(severity.high?.impact),
    mediumUrgency: text(severity.medium?.urgency),
    mediumImpact: text(severity.medium?.impact),
    highPriority: text(priority.high),
    mediumPriority: text(priority.medium),
    assignmentGroup: text(m.assignmentGroup),
    callerId: text(m.callerId),
    category: text(m.category),
    resolveState: text(m.resolveState),
    closeCode: text(m.closeCode),
    closeNotes: text(m.closeNotes),
    projectKey: text(m.projectKey),
    issueType: text(m.issueType),
    resolveTransition: text(m.resolveTransition),
    createFields: json(m.createFields),
    resolveFields: json(m.resolveFields),
  };
}

/** JSON typed in a box, or the text itself (the server then says it is not field names and values). */
function parsed(value: string): unknown {
  if (!value.trim()) return undefined;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** A service desk's part of the channel: the user, the password or token (empty keeps it), the mapping. */
export function deskChannelOf(
  type: ChannelType,
  form: { username: string; password: string; token: string; mapping: DeskMappingForm },
): Partial<ChannelCreateInput> {
  if (type !== 'servicenow' && type !== 'jira-service-management') return {};
  const keys = type === 'servicenow' ? serviceNowKeys : jiraKeys;
  const mapping: Record<string, unknown> = {};
  for (const key of keys) if (form.mapping[key].trim()) mapping[key] = form.mapping[key].trim();
  for (const key of ['createFields', 'resolveFields'] as const) {
    const value = parsed(form.mapping[key]);
    if (value !== undefined) mapping[key] = value;
  }
  Object.assign(mapping, type === 'servicenow' ? severityOf(form.mapping) : priorityOf(form.mapping));
  const secret =
    type === 'servicenow' ? { password: form.password || null } : { token: form.token.trim() || null };
  return { username: form.username.trim() || null, ...secret, mapping };
}

/** Urgency and impact when any is chosen, each one not chosen at its default. */
function severityOf(m: DeskMappingForm): Record<string, unknown> {
  const chosen = [m.highUrgency, m.highImpact, m.mediumUrgency, m.mediumImpact];
  if (chosen.every((v) => !v)) return {};
  const d = serviceNowSeverityDefaults;
  return {
    severity: {
      high: { urgency: m.highUrgency || d.high.urgency, impact: m.highImpact || d.high.impact },
      medium: { urgency: m.mediumUrgency || d.medium.urgency, impact: m.mediumImpact || d.medium.impact },
    },
  };
}

/** Priority names when any is typed, each one left empty at its default. */
function priorityOf(m: DeskMappingForm): Record<string, unknown> {
  const high = m.highPriority.trim();
  const medium = m.mediumPriority.trim();
  if (!high && !medium) return {};
  return {
    priority: { high: high || jiraPriorityDefaults.high, medium: medium || jiraPriorityDefaults.medium },
  };
}
