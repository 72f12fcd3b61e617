import { z } from 'zod';
import { storableText } from './common';

/**
 * How a room's alert is written into a service desk: who gets it, how urgent it is, and how it is
 * resolved. Every field has a default that works on a stock instance (ServiceNow's incident table
 * with its out-of-box close codes; a Jira Service Management IT service project), and the
 * `createFields`/`resolveFields` take what an instance made mandatory beyond that.
 */
const text = (label: string, max = 200) =>
  storableText(label)
    .trim()
    .max(max, { message: `${label} must be at most ${max} characters` });

/**
 * Field names and their values, as the instance's API takes them: strings, numbers, true/false,
 * and for Jira objects and lists (`{"resolution": {"name": "Done"}}`).
 */
const fieldMap = (label: string) =>
  z
    .record(
      z.string().regex(/^[A-Za-z_][A-Za-z0-9_.]{0,79}$/, {
        message: `${label} names must be field names such as u_room or customfield_10010`,
      }),
      z.union([
        z.string().max(4000),
        z.number(),
        z.boolean(),
        z.record(z.string(), z.unknown()),
        z.array(z.unknown()),
      ]),
      { message: `${label} must be field names and their values` },
    )
    .refine((fields) => Object.keys(fields).length <= 30, { message: `At most 30 ${label.toLowerCase()}` })
    .default({});

/** How serious a room's alert is: every monitored device offline, or some. */
export const alertSeverities = ['high', 'medium'] as const;
export type AlertSeverity = (typeof alertSeverities)[number];

/** ServiceNow's urgency and impact levels: 1 High, 2 Medium, 3 Low. */
export const serviceNowLevels = ['1', '2', '3'] as const;
const level = z.enum(serviceNowLevels, { message: 'Urgency and impact must be 1, 2 or 3' });

/**
 * Urgency and impact per severity when the channel sets none. A class in the room now or soon
 * always takes urgency 1, whatever is set (the timetable's urgent flag).
 */
export const serviceNowSeverityDefaults = {
  high: { urgency: '1', impact: '2' },
  medium: { urgency: '2', impact: '2' },
} as const;

/** Jira priority names per severity when the channel sets none (a stock scheme's). */
export const jiraPriorityDefaults = { high: 'High', medium: 'Medium' } as const;

export const serviceNowMappingSchema = z.object({
  /** `assignment_group`: a group's name or sys_id; none leaves the instance's assignment rules to it. */
  assignmentGroup: text('Assignment group').nullish(),
  /** `caller_id`: the user the incident is raised for (name or sys_id); none: the integration user. */
  callerId: text('Caller').nullish(),
  category: text('Category').nullish(),
  /** Urgency and impact per severity (ServiceNow works out the priority from them). */
  severity: z
    .object({
      high: z.object({ urgency: level, impact: level }),
      medium: z.object({ urgency: level, impact: level }),
    })
    .default(serviceNowSeverityDefaults),
  /** The state a recovery sets: 6, Resolved, on a stock instance (7 Closed needs itil_admin). */
  resolveState: text('Resolve state', 40).default('6'),
  /** Stock close codes since Utah: "Solution provided", "Resolved by caller", … ("Solved (Permanently)" before). */
  closeCode: text('Close code', 80).default('Solution provided'),
  closeNotes: text('Close notes', 4000).default('All devices of the room answer again (Classroom Monitor).'),
  createFields: fieldMap('Extra fields on create'),
  resolveFields: fieldMap('Extra fields on resolve'),
});
export type ServiceNowMapping = z.infer<typeof serviceNowMappingSchema>;

export const jiraMappingSchema = z.object({
  /** The service project's key, such as AV or ITSM. */
  projectKey: z
    .string({ message: 'Project key is required' })
    .trim()
    .regex(/^[A-Z][A-Z0-9_]{0,19}$/, { message: 'Project key must be a Jira project key, such as AV' }),
  /** The work type (issue type) by name: "[System] Incident" in an IT service management project. */
  issueType: text('Issue type', 80).default('[System] Incident'),
  /** Priority names per severity; an urgent alert (a class now or soon) is high. */
  priority: z
    .object({ high: text('Priority', 80), medium: text('Priority', 80) })
    .default(jiraPriorityDefaults),
  /** The transition a recovery takes, by name; the first to a "done" status when none matches. */
  resolveTransition: text('Resolve transition', 80).default('Resolve'),
  closeNotes: text('Close comment', 4000).default(
    'All devices of the room answer again (Classroom Monitor).',
  ),
  createFields: fieldMap('Extra fields on create'),
  resolveFields: fieldMap('Extra fields on resolve'),
});
export type JiraMapping = z.infer<typeof jiraMappingSchema>;

/** An incident a room's alert opened, as the room's alert and the delivery log show it. */
export const incidentRefSchema = z.object({
  channelId: z.string(),
  channelName: z.string(),
  /** INC0010001, AV-12. */
  number: z.string(),
  url: z.string(),
  /** open, resolved (by us), closed (by a person before the room recovered). */
  state: z.enum(['open', 'resolved', 'closed']),
});
export type IncidentRef = z.infer<typeof incidentRefSchema>;
