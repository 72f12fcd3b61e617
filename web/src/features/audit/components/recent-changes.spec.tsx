import { type AuditEntry } from '@cm/contracts';
import { screen } from '@testing-library/react';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { RecentChanges } from './recent-changes';

const roomId = '00000000-0000-4000-8000-000000000002';
const entry = (over: Partial<AuditEntry>): AuditEntry => ({
  id: '1',
  at: '2026-11-20T10:00:00.000Z',
  actorId: '00000000-0000-4000-8000-000000000001',
  actorName: 'chief',
  apiTokenId: null,
  requestId: 'r1',
  clientAddress: '127.0.0.1',
  action: 'create',
  entityType: 'room',
  entityId: roomId,
  before: null,
  after: { name: 'A-101' },
  count: 1,
  ...over,
});

describe(RecentChanges.name, () => {
  it("lists a record's changes, newest first, with each changed field before and after", async () => {
    const calls = fakeFetch({
      status: 200,
      body: {
        items: [
          entry({
            id: '2',
            action: 'update',
            before: { name: 'A-101' },
            after: { name: 'A-102' },
            apiTokenId: roomId,
          }),
          entry({}),
        ],
        nextCursor: null,
      },
    });
    renderWithApp(<RecentChanges entityType="room" entityId={roomId} />);
    const items = await screen.findAllByTestId('audit-entry');
    expect(items[0]).toHaveTextContent('Changed by chief (API token)');
    expect(items[0]).toHaveTextContent('name: A-101 → A-102');
    expect(items[1]).toHaveTextContent('Created by chief');
    expect(calls[0].url).toBe(`/api/audit?entityType=room&entityId=${roomId}&limit=10`);
  });

  it('says how many events an entry counted together stands for', async () => {
    fakeFetch({
      status: 200,
      body: {
        items: [entry({ action: 'sign-in-failed', actorId: null, actorName: null, after: null, count: 200 })],
        nextCursor: null,
      },
    });
    renderWithApp(<RecentChanges entityType="user" entityId={roomId} />);
    expect(await screen.findByTestId('audit-entry')).toHaveTextContent(
      'Sign-in refused 200 times by someone unknown',
    );
  });

  it('says so when nothing was recorded', async () => {
    fakeFetch({ status: 200, body: { items: [], nextCursor: null } });
    renderWithApp(<RecentChanges entityType="user" entityId={roomId} />);
    expect(await screen.findByText('No changes recorded.')).toBeInTheDocument();
  });
});
