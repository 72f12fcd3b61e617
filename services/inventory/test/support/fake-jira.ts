import { FakeHttp } from './fake-http';

export interface JiraIssue {
  key: string;
  status: 'Open' | 'Work in progress' | 'Resolved' | 'Closed';
  fields: Record<string, unknown>;
  comments: { body: unknown; internal: boolean }[];
}

const done = (s: JiraIssue['status']) => s === 'Resolved' || s === 'Closed';
const view = (i: JiraIssue) => ({
  key: i.key,
  fields: { status: { name: i.status, statusCategory: { key: done(i.status) ? 'done' : 'indeterminate' } } },
});

/**
 * Jira Service Management as the platform REST API v3 serves a service project: create a work
 * item, search by label with JQL, read it, internal comments, and the transitions of the stock IT
 * support workflow (Open → Work in progress → Resolved → Closed; "Resolve" from the first two).
 */
export async function startFakeJira(credentials = { username: 'av-bot@campus.edu', secret: 'jira-token' }) {
  const issues: JiraIssue[] = [];
  const transitions = [
    { id: '761', name: 'Start work', from: ['Open'], to: 'Work in progress' as const },
    { id: '851', name: 'Resolve', from: ['Open', 'Work in progress'], to: 'Resolved' as const },
    { id: '901', name: 'Close', from: ['Resolved'], to: 'Closed' as const },
  ];
  const handle = (req: { method: string; path: string; body: Record<string, unknown> | null }) => {
    const [path, query = ''] = req.path.split('?');
    if (path === '/rest/api/3/myself') return { status: 200, body: { accountId: 'x', active: true } };
    if (path === '/rest/api/3/search/jql') {
      const label = /labels = "([^"]+)"/.exec(query)?.[1];
      const found = issues.filter((i) => (i.fields.labels as string[]).includes(label ?? ''));
      return { status: 200, body: { issues: found.slice(0, 1).map(view) } };
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
    issue.status = wanted.to;
    const comment = (req.body?.update as { comment?: { add: { body: unknown } }[] } | undefined)?.comment;
    for (const c of comment ?? []) issue.comments.push({ body: c.add.body, internal: false });
    return { status: 204 };
  };
  const http = await new FakeHttp(handle, credentials).start();
  return {
    http,
    issues,
    credentials,
    closeByPerson: (key: string) => {
      issues.find((i) => i.key === key)!.status = 'Closed';
    },
  };
}
