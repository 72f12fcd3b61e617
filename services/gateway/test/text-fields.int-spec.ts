import { type Building, type Equipment, type Room, type User } from '@cm/contracts';
import { callJson, startAuthAndGateway } from './support';

/**
 * One rule for control characters in every service: a single-line field (a name, a floor, a model)
 * stores line breaks and tabs as spaces and drops other controls; notes and descriptions keep
 * their lines. Usernames must keep to one script.
 */
describe('text fields', () => {
  let sut: Awaited<ReturnType<typeof startAuthAndGateway>>;
  let cookie: string;

  const call = (path: string, method = 'GET', body?: unknown) =>
    callJson(sut.base, cookie, path, method, body);

  beforeAll(async () => {
    sut = await startAuthAndGateway({}, { inventory: true });
    cookie = (await sut.signInAdmin()).cookie;
  });
  afterAll(() => sut?.close());

  it('stores names on one line, without control characters, and keeps the lines of notes', async () => {
    const created = await call('/api/buildings', 'POST', {
      name: 'Science\r\nHall\u001b[2J',
      description: 'North campus\r\nEnter from the car park\u0007',
    });
    expect(created.status).toBe(201);
    const building = created.body as Building;
    expect(building).toMatchObject({
      name: 'Science Hall[2J',
      description: 'North campus\nEnter from the car park',
    });

    const room = (
      await call(`/api/buildings/${building.id}/rooms`, 'POST', {
        name: 'S101\n',
        type: 'Classroom',
        floor: '1\u2028A',
      })
    ).body as Room;
    expect(room).toMatchObject({ name: 'S101', floor: '1 A' });

    const equipment = (
      await call(`/api/rooms/${room.id}/equipment`, 'POST', {
        name: 'Projector\u202e',
        model: 'EB-\t680',
        notes: 'Lamp changed\nFilter cleaned',
      })
    ).body as Equipment;
    expect(equipment).toMatchObject({
      name: 'Projector',
      model: 'EB- 680',
      notes: 'Lamp changed\nFilter cleaned',
    });
    expect((await call(`/api/buildings/${building.id}`)).body).toMatchObject({ name: 'Science Hall[2J' });
  });

  it('refuses a username mixing scripts, saying why, and takes names on one line', async () => {
    const mixed = await call('/api/users', 'POST', {
      username: '\u0440\u0430ul',
      password: 'paul secret phrase',
    });
    expect(mixed).toEqual({
      status: 400,
      body: expect.objectContaining({
        code: 'COMMON.VALIDATION_FAILED',
        message:
          "Username mixes Cyrillic and Latin letters, which can make it look like another user's name. Use the letters of one alphabet.",
      }),
    });
    const paul = await call('/api/users', 'POST', {
      username: 'paul',
      password: 'paul secret phrase',
      firstName: 'Paul\r\nAdmin: yes',
    });
    expect(paul.status).toBe(201);
    expect((paul.body as User).firstName).toBe('Paul Admin: yes');
  });
});
