import { ErrorCode, messages } from '@cm/contracts';
import { failureOf, inventoryUnderTest, sql } from './support';

/** Equipment addresses are checked when written: devices only, inside the allowed networks, within the caps. */
describe('inventory equipment addresses', () => {
  describe('with the default networks of a test system', () => {
    const inventory = inventoryUnderTest({
      INVENTORY_MAX_ADDRESSES_PER_RANGE: '8',
      INVENTORY_MAX_MONITORED_ADDRESSES: '20',
    });
    const { make, send } = inventory;
    let roomId: string;
    const monitored = async () =>
      (
        await sql<{ ipAddress: string }>(
          inventory.sut,
          'SELECT ip_address AS "ipAddress" FROM inv.equipment WHERE ip_address IS NOT NULL ORDER BY ip_address',
        )
      ).map((row) => row.ipAddress);

    beforeEach(async () => {
      await sql(inventory.sut, 'DELETE FROM inv.buildings');
      roomId = (await make.room((await make.building()).id)).id;
    });

    it.each([
      ['0.0.0.0', '0.0.0.0 is in 0.0.0.0/8 ("this network"), which no device has'],
      ['255.255.255.255', '255.255.255.255 is reserved (240.0.0.0/4'],
      ['224.0.0.5', '224.0.0.5 is a multicast address (224.0.0.0/4)'],
      ['169.254.169.254', '169.254.169.254 is link-local (169.254.0.0/16)'],
      [
        '8.8.8.8',
        '8.8.8.8 is outside the networks this system may monitor (10.0.0.0/8, 172.16.0.0/12, 192.168.0.0/16, 127.0.0.0/8)',
      ],
      ['1.1.1.1-8', '1.1.1.1 is outside the networks'],
      ['10.1.1.0-7', '10.1.1.0 is the network address of 10.1.1.0/24'],
      ['10.1.1.250-255', '10.1.1.255 is the broadcast address of 10.1.1.0/24'],
    ])('refuses to create equipment at %s, saying why', async (ipAddress, message) => {
      const error = await failureOf(make.equipment(roomId, { ipAddress }));
      // The message's schema answers for the equipment field (the gateway's, for the body's `ipAddress`).
      expect(error).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        errors: [{ path: expect.stringMatching(/ipAddress$/) }],
      });
      expect(error.message).toContain(message);
      await expect(monitored()).resolves.toEqual([]);
    });

    it('refuses to change an address to one outside the rules, and keeps the old one', async () => {
      const e = await make.equipment(roomId, { ipAddress: '10.1.1.5' });
      for (const ipAddress of ['8.8.8.8', '224.0.0.1', '10.1.1.200-255']) {
        const error = await failureOf(
          send(messages.inventory.updateEquipment, { id: e.id, changes: { name: e.name, ipAddress } }),
        );
        expect([ipAddress, error.code, error.errors?.[0]?.path]).toEqual([
          ipAddress,
          ErrorCode.VALIDATION_FAILED,
          expect.stringMatching(/ipAddress$/),
        ]);
      }
      await expect(monitored()).resolves.toEqual(['10.1.1.5']);
    });

    it('takes loopback, which a test system may monitor, and addresses at the edges of the private ranges', async () => {
      for (const ipAddress of ['127.0.0.1', '10.255.255.254', '172.31.255.254', '192.168.0.1'])
        await expect(make.equipment(roomId, { ipAddress })).resolves.toMatchObject({ ipAddress });
    });

    it('caps the addresses of one range', async () => {
      await expect(make.equipment(roomId, { ipAddress: '10.2.0.1-8' })).resolves.toMatchObject({
        ipAddress: '10.2.0.1-8',
      });
      const error = await failureOf(make.equipment(roomId, { ipAddress: '10.2.0.1-9' }));
      expect(error).toMatchObject({
        code: ErrorCode.VALIDATION_FAILED,
        message:
          '10.2.0.1-9 covers 9 addresses; a range may cover at most 8: split it, or ask an administrator to raise INVENTORY_MAX_ADDRESSES_PER_RANGE',
        errors: [{ path: 'ipAddress', message: expect.stringContaining('at most 8') }],
      });
    });

    it('caps the addresses of the campus, counting each address of a range', async () => {
      await make.equipment(roomId, { ipAddress: '10.3.0.1-8' });
      await make.equipment(roomId, { ipAddress: '10.3.1.1-8' });
      const last = await make.equipment(roomId, { ipAddress: '10.3.2.1-4' }); // 20 of 20
      const full = await failureOf(make.equipment(roomId, { ipAddress: '10.3.3.1' }));
      expect(full).toMatchObject({
        code: ErrorCode.ADDRESS_LIMIT_REACHED,
        message:
          'The campus would have 21 monitored addresses; at most 20 may be monitored: remove the addresses of equipment no longer in use, or ask an administrator to raise INVENTORY_MAX_MONITORED_ADDRESSES',
        errors: [{ path: 'ipAddress', message: expect.stringContaining('at most 20') }],
      });
      // Equipment without an address costs nothing; an edit adding none is never refused.
      await expect(make.equipment(roomId, { name: 'Cable cubby' })).resolves.toMatchObject({
        ipAddress: null,
      });
      await expect(
        send(messages.inventory.updateEquipment, {
          id: last.id,
          changes: { name: 'Mics', ipAddress: '10.3.2.5-8' },
        }),
      ).resolves.toMatchObject({ name: 'Mics', ipAddress: '10.3.2.5-8' });
      const grow = await failureOf(
        send(messages.inventory.updateEquipment, {
          id: last.id,
          changes: { name: 'Mics', ipAddress: '10.3.2.1-5' },
        }),
      );
      expect(grow.code).toBe(ErrorCode.ADDRESS_LIMIT_REACHED);
      // Freeing addresses makes room.
      await send(messages.inventory.updateEquipment, {
        id: last.id,
        changes: { name: 'Mics', ipAddress: '10.3.2.1-3' },
      });
      await expect(make.equipment(roomId, { ipAddress: '10.3.3.1' })).resolves.toMatchObject({
        ipAddress: '10.3.3.1',
      });
      await send(messages.inventory.deleteEquipment, { id: last.id });
      await expect(make.equipment(roomId, { ipAddress: '10.3.4.1-3' })).resolves.toMatchObject({
        ipAddress: '10.3.4.1-3',
      });
    });

    it('lets only as many concurrent writes through as the campus cap has room for', async () => {
      await make.equipment(roomId, { ipAddress: '10.4.0.1-8' });
      await make.equipment(roomId, { ipAddress: '10.4.1.1-8' });
      const moving = await make.equipment(roomId, { ipAddress: '10.4.2.1' }); // 17 of 20
      // Three addresses left: creates and an edit that grows by two race for them.
      const writes = [
        ...[1, 2, 3, 4, 5, 6, 7, 8].map((d) => make.equipment(roomId, { ipAddress: `10.4.3.${d}` })),
        send(messages.inventory.updateEquipment, {
          id: moving.id,
          changes: { name: moving.name, ipAddress: '10.4.2.1-3' },
        }),
      ];
      const outcomes = await Promise.allSettled(writes);
      const refused = outcomes.filter((o) => o.status === 'rejected');
      for (const o of refused)
        expect((o.reason as { code: string }).code).toBe(ErrorCode.ADDRESS_LIMIT_REACHED);
      const [{ total }] = await sql<{ total: number }>(
        inventory.sut,
        `SELECT sum(CASE WHEN ip_address LIKE '%-%'
                         THEN split_part(ip_address, '-', 2)::int - split_part(split_part(ip_address, '-', 1), '.', 4)::int + 1
                         ELSE 1 END)::int AS total
           FROM inv.equipment WHERE ip_address IS NOT NULL`,
      );
      // Taken one at a time, in any order, these writes fill the campus to exactly its cap.
      expect(total).toBe(20);
      expect(refused.length).toBeGreaterThanOrEqual(6);
    });

    it('keeps rows stored before the rules, and refuses an edit that keeps their address until it is fixed', async () => {
      const e = await make.equipment(roomId, { ipAddress: '10.5.0.1' });
      await sql(inventory.sut, `UPDATE inv.equipment SET ip_address = '8.8.8.8' WHERE id = $1`, [e.id]);
      await expect(send(messages.inventory.listEquipment, { roomId })).resolves.toEqual([
        expect.objectContaining({ id: e.id, ipAddress: '8.8.8.8' }),
      ]);
      const kept = await failureOf(
        send(messages.inventory.updateEquipment, {
          id: e.id,
          changes: { name: 'Old', ipAddress: '8.8.8.8' },
        }),
      );
      expect(kept.message).toContain('8.8.8.8 is outside the networks');
      await expect(
        send(messages.inventory.updateEquipment, { id: e.id, changes: { name: 'Old', notes: 'moved' } }),
      ).resolves.toMatchObject({ ipAddress: '8.8.8.8', notes: 'moved' });
      await expect(
        send(messages.inventory.updateEquipment, {
          id: e.id,
          changes: { name: 'Old', ipAddress: '10.5.0.2' },
        }),
      ).resolves.toMatchObject({ ipAddress: '10.5.0.2' });
    });
  });

  describe('with networks of its own', () => {
    const inventory = inventoryUnderTest({ MONITOR_ALLOWED_NETWORKS: '10.20.0.0/16, 10.21.0.0/16' });
    const { make } = inventory;

    it('takes addresses inside them only, and names them in the refusal', async () => {
      const roomId = (await make.room((await make.building()).id)).id;
      await expect(make.equipment(roomId, { ipAddress: '10.21.4.1-64' })).resolves.toMatchObject({
        ipAddress: '10.21.4.1-64',
      });
      const error = await failureOf(make.equipment(roomId, { ipAddress: '10.22.0.1' }));
      expect(error.message).toBe(
        '10.22.0.1 is outside the networks this system may monitor (10.20.0.0/16, 10.21.0.0/16): enter an address in one of them, or ask an administrator to add its network to MONITOR_ALLOWED_NETWORKS',
      );
      expect((await failureOf(make.equipment(roomId, { ipAddress: '127.0.0.1' }))).message).toContain(
        '127.0.0.1 is loopback (127.0.0.0/8), this server itself, which only development and test systems monitor',
      );
    });
  });
});
