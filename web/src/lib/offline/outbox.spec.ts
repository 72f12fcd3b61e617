import { keyValueStore } from './idb';
import { flushOutbox, mergedText, nextSeq, type OutboxEntry, type SendOutcome } from './outbox';

let n = 0;
const entry = (over: Partial<OutboxEntry>): OutboxEntry => {
  n += 1;
  return {
    key: `key-${n}`,
    seq: n,
    route: 'updateBuilding',
    params: { id: 'b1' },
    body: { name: `Edit ${n}` },
    ifVersion: 1,
    label: `Edit ${n}`,
    form: { draftKey: 'building:b1', path: '/buildings' },
    queuedAt: n,
    state: 'waiting',
    ...over,
  };
};

async function storeWith(...entries: OutboxEntry[]) {
  // Each test its own store: in the unit tests' DOM there is no IndexedDB, so it lives in memory.
  const store = keyValueStore<OutboxEntry>('outbox');
  for (const e of await store.all()) await store.remove(e.key);
  for (const e of entries) await store.put(e.key, e);
  return store;
}

/** A server that answers each key from a table (sent, by default), recording what it was sent. */
function server(answers: Record<string, SendOutcome> = {}) {
  const seen: OutboxEntry[] = [];
  const send = (e: OutboxEntry) => {
    seen.push({ ...e });
    return Promise.resolve(answers[e.key] ?? { kind: 'sent' as const });
  };
  return { seen, send };
}

describe('the outbox', () => {
  it('sends a delete made after an edit of the same record on the version that edit made', async () => {
    const edit = entry({ ifVersion: 3 });
    const remove = entry({ route: 'deleteBuilding', body: {}, ifVersion: 3, form: undefined });
    const store = await storeWith(edit, remove);
    const seen: OutboxEntry[] = [];
    await flushOutbox(store, (e) => {
      seen.push({ ...e });
      return Promise.resolve({ kind: 'sent', version: e.route === 'updateBuilding' ? 4 : undefined });
    });
    expect(seen.map((e) => [e.route, e.ifVersion])).toEqual([
      ['updateBuilding', 3],
      ['deleteBuilding', 4],
    ]);
  });

  it("holds a delete behind its record's conflicting edit, and an edit after a room's upload goes on the upload's version", async () => {
    const edit = entry({ ifVersion: 1 });
    const remove = entry({ route: 'deleteBuilding', body: {}, ifVersion: 1 });
    const upload = entry({
      route: 'uploadRoomPicture',
      params: { id: 'r1', field: 'imageUrl' },
      ifVersion: undefined,
    });
    const roomEdit = entry({ route: 'updateRoom', params: { id: 'r1' }, ifVersion: 5 });
    const store = await storeWith(edit, remove, upload, roomEdit);
    const seen: OutboxEntry[] = [];
    const result = await flushOutbox(store, (e) => {
      seen.push({ ...e });
      if (e.key === edit.key)
        return Promise.resolve({ kind: 'conflict', reason: 'changed', current: { version: 2 } });
      return Promise.resolve({ kind: 'sent', version: e.key === upload.key ? 6 : undefined });
    });
    expect(seen.map((e) => [e.route, e.ifVersion])).toEqual([
      ['updateBuilding', 1],
      ['uploadRoomPicture', undefined],
      ['updateRoom', 6],
    ]);
    expect(result.conflicts.map((e) => e.key)).toEqual([edit.key]);
    expect((await store.all()).map((e) => e.key).sort()).toEqual([edit.key, remove.key].sort());
  });

  it('sends the waiting changes in the order they were queued, each with its own key, and forgets them', async () => {
    const a = entry({ seq: 30, params: { id: 'b1' } });
    const b = entry({ seq: 10, route: 'createRoom', params: { buildingId: 'b1' } });
    const c = entry({ seq: 20, params: { id: 'b2' } });
    const store = await storeWith(a, b, c);
    const { seen, send } = server();
    const result = await flushOutbox(store, send);
    expect(seen.map((e) => e.key)).toEqual([b.key, c.key, a.key]);
    expect(result.sent).toHaveLength(3);
    expect(await store.all()).toEqual([]);
  });

  it("sets a room's picture on the version the person saw, or on the one the room's edit queued before it made", async () => {
    const roomEdit = entry({ route: 'updateRoom', params: { id: 'r1' }, ifVersion: 5 });
    const upload = entry({
      route: 'uploadRoomPicture',
      params: { id: 'r1', field: 'imageUrl' },
      body: {},
      ifVersion: 5,
      form: undefined,
    });
    const later = entry({ route: 'updateRoom', params: { id: 'r1' }, ifVersion: 5 });
    const store = await storeWith(roomEdit, upload, later);
    const seen: OutboxEntry[] = [];
    await flushOutbox(store, (e) => {
      seen.push({ ...e });
      return Promise.resolve({ kind: 'sent', version: (e.ifVersion ?? 0) + 1 });
    });
    expect(seen.map((e) => [e.route, e.ifVersion])).toEqual([
      ['updateRoom', 5],
      ['uploadRoomPicture', 6],
      ['updateRoom', 7],
    ]);
  });

  it("removes a room's picture on the version the upload before it made; a removal found stale holds back the room's later edits", async () => {
    const upload = entry({
      route: 'uploadRoomPicture',
      params: { id: 'r1', field: 'imageUrl' },
      ifVersion: 5,
    });
    const removal = entry({
      route: 'removeRoomPicture',
      params: { id: 'r1', field: 'wiringDiagramUrl' },
      body: { wiringDiagramUrl: null },
      ifVersion: 5,
      form: undefined,
    });
    const later = entry({ route: 'updateRoom', params: { id: 'r1' }, ifVersion: 5 });
    const store = await storeWith(upload, removal, later);
    const seen: OutboxEntry[] = [];
    const result = await flushOutbox(store, (e) => {
      seen.push({ ...e });
      return Promise.resolve(
        e.key === removal.key
          ? { kind: 'conflict', reason: 'changed', current: { version: 7 } }
          : { kind: 'sent', version: 6 },
      );
    });
    expect(seen.map((e) => [e.route, e.ifVersion])).toEqual([
      ['uploadRoomPicture', 5],
      ['removeRoomPicture', 6],
    ]);
    expect(result.conflicts.map((e) => e.key)).toEqual([removal.key]);
    expect((await store.all()).map((e) => e.key).sort()).toEqual([removal.key, later.key].sort());
  });

  it('keeps an upload onto a record changed meanwhile as a conflict, holding back the later edits of that record', async () => {
    const upload = entry({
      route: 'uploadRoomPicture',
      params: { id: 'r1', field: 'wiringDiagramUrl' },
      body: {},
      ifVersion: 2,
      form: undefined,
    });
    const later = entry({ route: 'updateRoom', params: { id: 'r1' }, ifVersion: 2 });
    const photoEdit = entry({
      params: { id: 'b7' },
      ifVersion: 1,
      label: 'Edit building b7 with a new photo',
    });
    const store = await storeWith(upload, later, photoEdit);
    const current = { id: 'r1', name: 'Theirs', wiringDiagramUrl: null, version: 3 };
    const { seen, send } = server({
      [upload.key]: { kind: 'conflict', reason: 'Changed by someone else', current },
      [photoEdit.key]: { kind: 'conflict', reason: 'Changed by someone else', current: { version: 2 } },
    });
    const result = await flushOutbox(store, send);
    expect(seen.map((e) => e.key)).toEqual([upload.key, photoEdit.key]);
    expect(result.conflicts.map((e) => [e.key, e.state])).toEqual([
      [upload.key, 'conflict'],
      [photoEdit.key, 'conflict'],
    ]);
    expect(result.conflicts[0].current).toEqual(current);
    expect((await store.get(later.key))?.state).toBe('waiting');
  });

  it('sends nothing twice: a second round after a full one sends nothing', async () => {
    const store = await storeWith(entry({}), entry({ params: { id: 'b2' } }));
    const { seen, send } = server();
    await flushOutbox(store, send);
    await flushOutbox(store, send);
    expect(seen).toHaveLength(2);
  });

  it('stops at the first change that gets no answer and sends the rest, in order, next time', async () => {
    const [a, b, c] = [
      entry({ params: { id: 'x' } }),
      entry({ params: { id: 'y' } }),
      entry({ params: { id: 'z' } }),
    ];
    const store = await storeWith(a, b, c);
    const offline = server({ [b.key]: { kind: 'unreachable' } });
    const first = await flushOutbox(store, offline.send);
    expect(first.stopped).toBe('unreachable');
    expect(offline.seen.map((e) => e.key)).toEqual([a.key, b.key]);

    const back = server();
    await flushOutbox(store, back.send);
    expect(back.seen.map((e) => e.key)).toEqual([b.key, c.key]);
  });

  it('stops when the session has ended, keeping everything not yet sent', async () => {
    const [a, b] = [entry({}), entry({ params: { id: 'b2' } })];
    const store = await storeWith(a, b);
    const result = await flushOutbox(store, server({ [a.key]: { kind: 'signed-out' } }).send);
    expect(result.stopped).toBe('signed-out');
    expect((await store.all()).map((e) => e.key).sort()).toEqual([a.key, b.key].sort());
  });

  it('keeps a stale edit with both versions, and holds back later edits of that record but not of others', async () => {
    const stale = entry({ params: { id: 'b1' } });
    const later = entry({ params: { id: 'b1' } });
    const other = entry({ params: { id: 'b2' } });
    const store = await storeWith(stale, later, other);
    const current = { id: 'b1', name: 'Theirs', version: 2 };
    const { seen, send } = server({
      [stale.key]: { kind: 'conflict', reason: 'changed by someone else', current },
    });
    const result = await flushOutbox(store, send);
    expect(seen.map((e) => e.key)).toEqual([stale.key, other.key]);
    expect(result.conflicts).toEqual([
      expect.objectContaining({ key: stale.key, state: 'conflict', current }),
    ]);
    const kept = await store.all();
    expect(kept.map((e) => [e.key, e.state]).sort()).toEqual(
      [
        [stale.key, 'conflict'],
        [later.key, 'waiting'],
      ].sort(),
    );
    // Still held on the next round, until the person decides.
    const again = server();
    await flushOutbox(store, again.send);
    expect(again.seen).toEqual([]);
  });

  it('keeps a refused create with the reason, to go back to its form', async () => {
    const create = entry({ route: 'createBuilding', params: {}, ifVersion: undefined });
    const store = await storeWith(create);
    const result = await flushOutbox(
      store,
      server({ [create.key]: { kind: 'refused', reason: 'Building name is required' } }).send,
    );
    expect(result.refused).toEqual([
      expect.objectContaining({ key: create.key, state: 'refused', reason: 'Building name is required' }),
    ]);
  });

  it('sends a second edit of a record made on this device on the version the first one made', async () => {
    const first = entry({ params: { id: 'b9' }, ifVersion: 4 });
    const second = entry({ params: { id: 'b9' }, ifVersion: 4 });
    const store = await storeWith(first, second);
    const seen: OutboxEntry[] = [];
    await flushOutbox(store, (e) => {
      seen.push({ ...e });
      return Promise.resolve({ kind: 'sent', version: (e.ifVersion ?? 0) + 1 });
    });
    expect(seen.map((e) => e.ifVersion)).toEqual([4, 5]);
  });

  it('queues after every entry kept, whatever the clock says', async () => {
    const store = await storeWith(entry({ seq: 500 }));
    expect(await nextSeq(store, 100)).toBe(501);
    expect(await nextSeq(store, 900)).toBe(900);
  });

  it('merges notes: the server’s first, then mine, without repeating either', () => {
    expect(mergedText('Lamp replaced', 'Filter cleaned')).toBe('Lamp replaced\nFilter cleaned');
    expect(mergedText('Lamp replaced', 'Lamp replaced')).toBe('Lamp replaced');
    expect(mergedText(null, 'Mine')).toBe('Mine');
    expect(mergedText('Theirs', '')).toBe('Theirs');
  });
});
