import { FakeHttp } from './fake-http';

export interface SnIncident {
  sys_id: string;
  number: string;
  state: string;
  correlation_id: string;
  fields: Record<string, unknown>;
  work_notes: string[];
}

const TABLE = '/api/now/table/incident';

/** The close codes of a stock instance since Utah. */
export const UTAH_CLOSE_CODES = [
  'Duplicate',
  'Known error',
  'No resolution provided',
  'Resolved by caller',
  'Resolved by change',
  'Resolved by problem',
  'Resolved by request',
  'Solution provided',
  'Workaround provided',
  'User error',
];
/** The close codes of a stock instance before Utah. */
export const PRE_UTAH_CLOSE_CODES = [
  'Solved (Work Around)',
  'Solved (Permanently)',
  'Solved Remotely (Work Around)',
  'Solved Remotely (Permanently)',
  'Not Solved (Not Reproducible)',
  'Not Solved (Too Costly)',
  'Closed/Resolved by Caller',
];
const view = (i: SnIncident, fields = 'sys_id,number,state') =>
  Object.fromEntries(
    fields
      .split(',')
      .map((f) => [
        f,
        f === 'sys_id' || f === 'number' || f === 'state' || f === 'correlation_id' ? i[f] : undefined,
      ]),
  );

/** New, In Progress and On Hold: what `active=true` matches. */
const active = (i: SnIncident) => Number(i.state) < 6;

/**
 * An encoded query's conditions as the integration writes them (`correlation_id=…`,
 * `correlation_idSTARTSWITH…`, `active=true`, joined by ^; ORDERBY is creation order here).
 */
function matches(query: string, i: SnIncident): boolean {
  return query
    .split('^')
    .filter((c) => c && !c.startsWith('ORDERBY'))
    .every((c) => {
      const startsWith = /^correlation_idSTARTSWITH(.*)$/.exec(c);
      if (startsWith) return i.correlation_id.startsWith(startsWith[1]);
      const equals = /^correlation_id=(.*)$/.exec(c);
      if (equals) return i.correlation_id === equals[1];
      if (c === 'active=true') return active(i);
      throw new Error(`The fake ServiceNow does not know the condition ${c}`);
    });
}

/**
 * ServiceNow's Table API on `incident`, as far as the integration uses it: create, query by
 * `correlation_id`, read, update (work notes appended, fields set), and the stock state machine:
 * 1 New → 2 In Progress / 3 On Hold → 6 Resolved (close_code and close_notes mandatory, 400
 * otherwise, as a stock instance's data policy answers) → 7 Closed (read-only: 403 to updates).
 * `mandatoryOnResolve` adds fields an instance made mandatory; `closeCodes` is the instance's
 * choice list of close codes (Utah's stock one to begin with): a close code it lacks is taken as
 * none, so that resolve is refused as one without a close code.
 */
export async function startFakeServiceNow(credentials = { username: 'cm.integration', secret: 'sn-pass' }) {
  const incidents: SnIncident[] = [];
  const mandatoryOnResolve: string[] = ['close_code', 'close_notes'];
  const closeCodes = [...UTAH_CLOSE_CODES];
  const handle = (req: { method: string; path: string; body: Record<string, unknown> | null }) => {
    const [path, query = ''] = req.path.split('?');
    if (path === TABLE && req.method === 'GET') {
      // The path arrives decoded: the parameters split at &, which no query here holds in a value.
      const params = new URLSearchParams(query.replace(/\+/g, '%2B'));
      const filter = params.get('sysparm_query') ?? '';
      const limit = Number(params.get('sysparm_limit') ?? 10_000);
      const offset = Number(params.get('sysparm_offset') ?? 0);
      const matching = incidents.filter((i) => matches(filter, i));
      const fields = params.get('sysparm_fields') ?? undefined;
      return {
        status: 200,
        body: { result: matching.slice(offset, offset + limit).map((i) => view(i, fields)) },
      };
    }
    if (path === TABLE && req.method === 'POST') {
      const { correlation_id, ...fields } = req.body ?? {};
      const incident: SnIncident = {
        sys_id: `${String(incidents.length + 1).padStart(4, '0')}aa00bb11cc22dd33ee44ff55667788`.slice(0, 32),
        number: `INC${String(10001 + incidents.length).padStart(7, '0')}`,
        state: '1',
        correlation_id: String(correlation_id ?? ''),
        fields,
        work_notes: [],
      };
      incidents.push(incident);
      return { status: 201, body: { result: view(incident) } };
    }
    const incident = incidents.find((i) => path === `${TABLE}/${i.sys_id}`);
    if (!incident) return { status: 404, body: { error: { message: 'No Record found' } } };
    if (req.method === 'GET') return { status: 200, body: { result: view(incident) } };
    if (req.method !== 'PATCH') return { status: 405 };
    if (incident.state === '7')
      return { status: 403, body: { error: { message: 'Closed incidents are read-only' } } };
    const { work_notes, state, ...fields } = req.body ?? {};
    if (state === '6' || state === '7') {
      const known: Record<string, unknown> = {
        ...fields,
        close_code: closeCodes.includes(String(fields.close_code)) && fields.close_code,
      };
      const missing = mandatoryOnResolve.filter((f) => !known[f]);
      if (missing.length)
        return { status: 400, body: { error: { message: `Mandatory ${missing[0]} missing` } } };
    }
    if (typeof work_notes === 'string') incident.work_notes.push(work_notes);
    if (typeof state === 'string') incident.state = state;
    Object.assign(incident.fields, fields);
    return { status: 200, body: { result: { sys_id: incident.sys_id } } };
  };
  const http = await new FakeHttp(handle, credentials).start();
  return {
    http,
    incidents,
    mandatoryOnResolve,
    closeCodes,
    credentials,
    /** A person closes the incident in ServiceNow. */
    closeByPerson: (number: string) => {
      incidents.find((i) => i.number === number)!.state = '7';
    },
  };
}
