import { FakeHttp } from './fake-http';

export interface JiraIssue {
  key: string;
  status: 'Open' | 'Work in progress' | 'Resolved' | 'Closed';
  fields: Record<string, unknown>;
  comments: { body: unknown; internal: boolean }[];
}

const done = (s: JiraIssue['status']) => s === 'Resolved' || s === 'Closed';
const view = (i: JiraIssue, labels = false) => ({
  key: i.key,
  fields: {
    status: { name: i.status, statusCategory: { key: done(i.status) ? 'done' : 'indeterminate' } },
    ...(labels ? { labels: i.fields.labels } : {}),
  },
});

/** The JQL the integration writes: a project, a label, perhaps `statusCategory != Done`. */
function matches(jql: string, i: JiraIssue): boolean {
  const project = /project = "([^"]+)"/.exec(jql)?.[1];
  const label = /labels = "([^"]+)"/.exec(jql)?.[1];
  if (!project || !label) throw new Error(`The fake Jira does not know the query ${jql}`);
  return (
    i.key.startsWith(`${project}-`) &&
    (i.fields.labels as string[]).includes(label) &&
    (!jql.includes('statusCategory != Done') || !done(i.status))
  );
}

/**
 * Jira Service Management as the platform REST API v3 serves a service project: create a work
 * item, search by label with JQL, read it, internal comments, and the transitions of the stock IT
 * support workflow (Open → Work in progress → Resolved → Closed; "Resolve" from the first two).
 * `requiredOnResolve` names fields the resolve transitions' screen makes required: a transition
 * without them is refused with 400 and Jira's `errors` per field.
 */
export async function startFakeJira(credentials = { username: 'av-bot@campus.edu', secret: 'jira-token' }) {
  const issues: JiraIssue[] = [];
  const requiredOnResolve: string[] = [];
  const transitions = [
    { id: '761', name: 'Start work', from: ['Open'], to: 'Work in progress' as const },
    { id: '851', name: 'Resolve', from: ['Open', 'Work in progress'], to: 'Resolved' as const },
    { id: '871', name: 'Mark as fixed', from: ['Open', 'Work in progress'], to: 'Resolved' as const },
    { id: '901', name: 'Close', from: ['Resolved'], to: 'Closed' as const },
  ];
  const handle = (req: { method: string; path: string; body: Record<string, unknown> | null }) => {
    const [path, query = ''] = req.path.split('?');
    if (path === '/rest/api/3/myself') return { status: 200, body: { accountId: 'x', active: true } };
    if (path === '/rest/api/3/search/jql') {
      // The path arrives decoded: the parameters split at &, which no query here holds in a value.
      const params = new URLSearchParams(query.replace(/\+/g, '%2B'));
      const found = issues.filter((i) => matches(params.get('jql') ?? '', i));
      const max = Number(params.get('maxResults') ?? 50);
      // The page token is opaque to callers; here, the offset of the page.
      const from = Number(params.get('nextPageToken') ?? 0);
      const page = found.slice(from, from + max);
      const isLast = from + max >= found.length;
      const labels = (params.get('fields') ?? '').split(',').includes('labels');
      return {
        status: 200,
        body: {
          issues: page.map((i) => view(i, labels)),
          ...(isLast ? {} : { nextPageToken: String(from + max) }),
          isLast,
        },
      };
    }
    if (path === '/rest/api/3/issue' && req.method === 'POST') {
      const fields = (req.body?.fields ?? {}) as Record<string, unknown>;
      const key = `${(fields.project as { key: string }).key}-${issues.length + 1}`;
      issues.push({ key, status: 'Open', fields, comments: [] });
      return {
        status: 201,
        body: { id: String(10000 + issues.length), key, self: `/rest/api/3/issue/${key}` },
      };
    }
    const match = /^\/rest\/api\/3\/issue\/([A-Z0-9]+-\d+)(\/comment|\/transitions)?$/.exec(path);
    const issue = issues.find((i) => i.key === match?.[1]);
    if (!issue) return { status: 404, body: { errorMessages: ['Issue does not exist'] } };
    if (!match![2]) return { status: 200, body: view(issue) };
    if (match![2] === '/comment') {
      const properties = (req.body?.properties ?? []) as { key: string; value: { internal?: boolean } }[];
      const internal = properties.some((p) => p.key === 'sd.public.comment' && p.value.internal);
      issue.comments.push({ body: req.body?.body, internal });
      return { status: 201, body: { id: String(issue.comments.length) } };
    }
    const available = transitions.filter((t) => t.from.includes(issue.status));
    if (req.method === 'GET') {
      return {
        status: 200,
        body: {
          transitions: available.map((t) => ({
            id: t.id,
            name: t.name,
            to: { name: t.to, statusCategory: { key: done(t.to) ? 'done' : 'indeterminate' } },
          })),
        },
      };
    }
    const wanted = available.find((t) => t.id === (req.body?.transition as { id: string }).id);
    if (!wanted) return { status: 400, body: { errorMessages: ['Transition is not valid'] } };
    const given = (req.body?.fields ?? {}) as Record<string, unknown>;
    const missing = wanted.to === 'Resolved' ? requiredOnResolve.filter((f) => given[f] === undefined) : [];
    if (missing.length) {
      const errors = Object.fromEntries(missing.map((f) => [f, `${f} is required.`]));
      return { status: 400, body: { errorMessages: [], errors } };
    }
    issue.status = wanted.to;
    Object.assign(issue.fields, given);
    const comment = (req.body?.update as { comment?: { add: { body: unknown } }[] } | undefined)?.comment;
    for (const c of comment ?? []) issue.comments.push({ body: c.add.body, internal: false });
    return { status: 204 };
  };
  const http = await new FakeHttp(handle, credentials).start();
  return {
    http,
    issues,
    requiredOnResolve,
    credentials,
    closeByPerson: (key: string) => {
      issues.find((i) => i.key === key)!.status = 'Closed';
    },
  };
}
