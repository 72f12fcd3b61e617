import { type ServiceNowMapping } from '@cm/contracts';
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

interface Record {
  sys_id: string;
  number: string;
  state: string;
  correlation_id?: string;
}

/** States from Resolved on (6 Resolved, 7 Closed, 8 Canceled): a person or we ended it. */
const ENDED = 6;
const FIELDS = 'sysparm_fields=sys_id,number,state';
const TABLE = '/api/now/table/incident';

/**
 * ServiceNow's Table API on the `incident` table. The correlation key goes in `correlation_id`
 * (with `correlation_display` naming us), which is how integrations find their incident again.
 */
export class ServiceNowClient implements DeskClient {
  constructor(
    private readonly http: DeskHttp,
    private readonly mapping: ServiceNowMapping,
  ) {}

  async test(): Promise<void> {
    await this.http.json('GET', `${TABLE}?sysparm_limit=1&sysparm_fields=sys_id`, 'read incidents');
  }

  async find(key: string): Promise<RemoteIncident | null> {
    const query = encodeURIComponent(`correlation_id=${key}^ORDERBYsys_created_on`);
    const answer = await this.http.json<{ result?: Record[] }>(
      'GET',
      `${TABLE}?sysparm_query=${query}&${FIELDS}&sysparm_limit=1`,
      'look the incident up',
    );
    const found = answer.result?.[0];
    return found ? this.incident(found) : null;
  }

  async get(incident: RemoteIncident): Promise<RemoteIncident> {
    const answer = await this.http.json<{ result?: Record }>(
      'GET',
      `${TABLE}/${encodeURIComponent(incident.id)}?${FIELDS}`,
      `read ${incident.number}`,
    );
    return this.incident(answer.result);
  }

  async create(episode: Episode, key: string): Promise<RemoteIncident> {
    const m = this.mapping;
    const answer = await this.http.json<{ result?: Record }>(
      'POST',
      `${TABLE}?${FIELDS}`,
      'open an incident',
      {
        short_description: episodeTitle(episode),
        description: episodeText(episode),
        correlation_id: key,
        correlation_display: 'Classroom Monitor',
        ...m.severity[severityOf(episode)],
        // A class in the room now or soon: the highest urgency, whatever the mapping says.
        ...(episode.urgent ? { urgency: '1' } : {}),
        ...(m.assignmentGroup ? { assignment_group: m.assignmentGroup } : {}),
        ...(m.callerId ? { caller_id: m.callerId } : {}),
        ...(m.category ? { category: m.category } : {}),
        ...m.createFields,
      },
    );
    return this.incident(answer.result);
  }

  async note(incident: RemoteIncident, text: string): Promise<void> {
    await this.http.json(
      'PATCH',
      `${TABLE}/${encodeURIComponent(incident.id)}?sysparm_fields=sys_id`,
      `add a work note to ${incident.number}`,
      {
        work_notes: text,
      },
    );
  }

  async resolve(incident: RemoteIncident): Promise<void> {
    const m = this.mapping;
    await this.http.json(
      'PATCH',
      `${TABLE}/${encodeURIComponent(incident.id)}?sysparm_fields=sys_id`,
      `resolve ${incident.number}`,
      {
        state: m.resolveState,
        close_code: m.closeCode,
        close_notes: m.closeNotes,
        ...m.resolveFields,
      },
    );
  }

  async openIncidents(page: string | null): Promise<OpenPage> {
    const offset = Number(page ?? 0);
    // `active=true`: New, In Progress and On Hold; resolved, closed and canceled ones are not.
    const query = encodeURIComponent(
      `correlation_idSTARTSWITH${KEY_PREFIX}^active=true^ORDERBYsys_created_on^ORDERBYsys_id`,
    );
    const answer = await this.http.json<{ result?: Record[] }>(
      'GET',
      `${TABLE}?sysparm_query=${query}&${FIELDS},correlation_id&sysparm_limit=${OPEN_PAGE_SIZE}&sysparm_offset=${offset}`,
      'list the open incidents it raised',
    );
    const records = answer.result ?? [];
    return {
      incidents: records.map((r) => ({ key: r.correlation_id ?? '', incident: this.incident(r) })),
      next: records.length === OPEN_PAGE_SIZE ? String(offset + OPEN_PAGE_SIZE) : null,
    };
  }

  private incident(record: Record | undefined): RemoteIncident {
    if (!record?.sys_id || !record.number) {
      throw new SendError(
        `${new URL(this.http.baseUrl).host} answered without an incident's sys_id and number`,
      );
    }
    const uri = encodeURIComponent(`incident.do?sys_id=${record.sys_id}`);
    return {
      id: record.sys_id,
      number: record.number,
      url: `${this.http.baseUrl}/nav_to.do?uri=${uri}`,
      closed: Number(record.state) >= ENDED,
    };
  }
}
