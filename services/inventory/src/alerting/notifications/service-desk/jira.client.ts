import { type JiraMapping } from '@cm/contracts';
import { SendError } from '../send-error';
import {
  type DeskClient,
  type Episode,
  episodeText,
  KEY_PREFIX,
  OPEN_PAGE_SIZE,
  type OpenPage,
  episodeTitle,
  type RemoteIncident,
  severityOf,
} from './desk-client';
import { type DeskHttp } from './desk-http';

interface Issue {
  id?: string;
  key: string;
  fields?: { status?: { statusCategory?: { key?: string } }; labels?: string[] };
}

interface Transition {
  id: string;
  name: string;
  to?: { statusCategory?: { key?: string } };
}

/** The label of every work item we open, beside its key's. */
const LABEL = 'classroom-monitor';

/** Plain text as the Atlassian Document Format API v3 takes: a paragraph per line. */
export function adf(text: string): object {
  return {
    type: 'doc',
    version: 1,
    content: text.split('\n').map((line) => ({
      type: 'paragraph',
      content: line ? [{ type: 'text', text: line }] : [],
    })),
  };
}

/**
 * Jira Service Management through the platform REST API v3 (`/rest/api/3/issue`), which a JSM
 * project takes like any: the correlation key is a label (`cm-<alert id>`), found again with JQL;
 * notes are internal comments (`sd.public.comment`); a recovery takes the resolve transition.
 */
export class JiraClient implements DeskClient {
  constructor(
    private readonly http: DeskHttp,
    private readonly mapping: JiraMapping,
  ) {}

  async test(): Promise<void> {
    await this.http.json('GET', '/rest/api/3/myself', 'read the integration account');
  }

  async find(key: string): Promise<RemoteIncident | null> {
    const jql = `project = "${this.mapping.projectKey}" AND labels = "${key}" ORDER BY created ASC`;
    const answer = await this.http.json<{ issues?: Issue[] }>(
      'GET',
      `/rest/api/3/search/jql?jql=${encodeURIComponent(jql)}&fields=status&maxResults=1`,
      'look the work item up',
    );
    const found = answer.issues?.[0];
    return found ? this.incident(found) : null;
  }

  async get(incident: RemoteIncident): Promise<RemoteIncident> {
    const issue = await this.http.json<Issue>(
      'GET',
      `/rest/api/3/issue/${encodeURIComponent(incident.id)}?fields=status`,
      `read ${incident.number}`,
    );
    return this.incident(issue);
  }

  async create(episode: Episode, key: string): Promise<RemoteIncident> {
    const m = this.mapping;
    const created = await this.http.json<Issue>('POST', '/rest/api/3/issue', 'open a work item', {
      fields: {
        project: { key: m.projectKey },
        issuetype: { name: m.issueType },
        summary: episodeTitle(episode),
        description: adf(episodeText(episode)),
        labels: [LABEL, key],
        priority: { name: m.priority[severityOf(episode)] },
        ...m.createFields,
      },
    });
    // A new work item is open: its status is not read back.
    return this.incident({ key: created.key, fields: { status: { statusCategory: { key: 'new' } } } });
  }

  async note(incident: RemoteIncident, text: string): Promise<void> {
    await this.http.json(
      'POST',
      `/rest/api/3/issue/${encodeURIComponent(incident.id)}/comment`,
      `comment on ${incident.number}`,
      {
        body: adf(text),
        properties: [{ key: 'sd.public.comment', value: { internal: true } }],
      },
    );
  }

  async resolve(incident: RemoteIncident): Promise<void> {
    const m = this.mapping;
    const path = `/rest/api/3/issue/${encodeURIComponent(incident.id)}/transitions`;
    const { transitions = [] } = await this.http.json<{ transitions?: Transition[] }>(
      'GET',
      path,
      `read ${incident.number}'s transitions`,
    );
    const wanted = m.resolveTransition.toLowerCase();
    const transition =
      transitions.find((t) => t.name.toLowerCase() === wanted) ??
      transitions.find((t) => t.to?.statusCategory?.key === 'done');
    if (!transition) {
      throw new SendError(
        `${incident.number} has no "${m.resolveTransition}" transition nor one to a done status: set the channel's resolve transition`,
      );
    }
    // The closing comment goes with the transition, so a retry after a failure adds none twice.
    await this.http.json('POST', path, `resolve ${incident.number}`, {
      transition: { id: transition.id },
      ...(Object.keys(m.resolveFields).length > 0 ? { fields: m.resolveFields } : {}),
      update: { comment: [{ add: { body: adf(m.closeNotes) } }] },
    });
  }

  async openIncidents(page: string | null): Promise<OpenPage> {
    // Labels match whole words only in JQL: every work item we open has ours, and its key's label.
    const jql = `project = "${this.mapping.projectKey}" AND labels = "${LABEL}" AND statusCategory != Done ORDER BY created ASC`;
    const token = page ? `&nextPageToken=${encodeURIComponent(page)}` : '';
    const answer = await this.http.json<{ issues?: Issue[]; nextPageToken?: string; isLast?: boolean }>(
      'GET',
      `/rest/api/3/search/jql?jql=${encodeURIComponent(jql)}&fields=status,labels&maxResults=${OPEN_PAGE_SIZE}${token}`,
      'list the open work items it raised',
    );
    return {
      incidents: (answer.issues ?? []).map((issue) => ({
        key: issue.fields?.labels?.find((l) => l.startsWith(KEY_PREFIX)) ?? '',
        incident: this.incident(issue),
      })),
      next: answer.isLast !== true && answer.nextPageToken ? answer.nextPageToken : null,
    };
  }

  private incident(issue: Issue | undefined): RemoteIncident {
    if (!issue?.key)
      throw new SendError(`${new URL(this.http.baseUrl).host} answered without a work item's key`);
    return {
      id: issue.key,
      number: issue.key,
      url: `${this.http.baseUrl}/browse/${issue.key}`,
      closed: issue.fields?.status?.statusCategory?.key === 'done',
    };
  }
}
