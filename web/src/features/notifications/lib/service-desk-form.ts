import { type Channel, type ChannelCreateInput, type ChannelType } from '@cm/contracts';
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

/** The boxes of a channel's mapping (empty for a new channel). */
export function deskMappingValues(channel?: Channel): DeskMappingForm {
  const m = (channel?.mapping ?? {}) as Record<string, unknown>;
  return {
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
  const secret =
    type === 'servicenow' ? { password: form.password || null } : { token: form.token.trim() || null };
  return { username: form.username.trim() || null, ...secret, mapping };
}
