import { type Equipment } from '@cm/contracts';
import { Injectable, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { type Transaction } from '../database/table.repository';
import { EventsModule } from './events.module';
import { InventoryEventBus, OnInventoryEvent, type TransactionRunner } from './inventory-event-bus';
import { type InventoryEvents } from './inventory-events';

/** Runs work against a stand-in transaction handle; a throw is its rollback. */
const tx = { name: 'tx' } as unknown as Transaction;
const runner: TransactionRunner = { transaction: (work) => work(tx) };

const deleted: InventoryEvents['equipment.deleted'] = { id: 'e1', roomId: 'r1', buildingId: 'b1' };

describe(InventoryEventBus.name, () => {
  it('delivers to after-commit subscribers once the transaction commits, before answering', async () => {
    const sut = new InventoryEventBus();
    const seen: string[] = [];
    sut.on('equipment.deleted', ({ id }) => void seen.push(`after ${id}`));
    const answer = await sut.transaction(runner, async (_tx, events) => {
      await events.emit('equipment.deleted', deleted);
      seen.push('emitted');
      return 'done';
    });
    expect(answer).toBe('done');
    expect(seen).toEqual(['emitted', 'after e1']);
  });

  it('delivers nothing when the transaction rolls back', async () => {
    const sut = new InventoryEventBus();
    const after = jest.fn();
    sut.on('equipment.deleted', after);
    const failing = sut.transaction(runner, async (_tx, events) => {
      await events.emit('equipment.deleted', deleted);
      throw new Error('refused');
    });
    await expect(failing).rejects.toThrow('refused');
    expect(after).not.toHaveBeenCalled();
  });

  it('runs in-transaction subscribers at the emit, with the transaction, and their events after the commit', async () => {
    const sut = new InventoryEventBus();
    const seen: unknown[] = [];
    sut.onInTransaction('equipment.status-set', async ({ equipmentId }, scope) => {
      seen.push(['in', equipmentId, scope.tx]);
      await scope.events.emit('alerts.changed', { queued: 1, rooms: [] });
    });
    sut.on('alerts.changed', ({ queued }) => void seen.push(['after', queued]));
    await sut.transaction(runner, async (_tx, events) => {
      await events.emit('equipment.status-set', { equipmentId: 'e1', status: 'maintenance' });
      seen.push('emitted');
    });
    expect(seen).toEqual([['in', 'e1', tx], 'emitted', ['after', 1]]);
  });

  it('fails the transaction when an in-transaction subscriber fails', async () => {
    const sut = new InventoryEventBus();
    const after = jest.fn();
    sut.onInTransaction('equipment.status-set', () => Promise.reject(new Error('no history')));
    sut.on('equipment.status-set', after);
    const failing = sut.transaction(runner, (_tx, events) =>
      events.emit('equipment.status-set', { equipmentId: 'e1', status: 'active' }),
    );
    await expect(failing).rejects.toThrow('no history');
    expect(after).not.toHaveBeenCalled();
  });

  it('logs a failing after-commit subscriber and still delivers to the others', async () => {
    const sut = new InventoryEventBus();
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => {});
    const others = jest.fn();
    sut.on('equipment.deleted', () => {
      throw new Error('thrown');
    });
    sut.on('equipment.deleted', () => Promise.reject(new Error('rejected')));
    sut.on('equipment.deleted', others);
    await sut.transaction(runner, (_tx, events) => events.emit('equipment.deleted', deleted));
    expect(others).toHaveBeenCalledWith(deleted);
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls.map(([message]) => String(message))).toEqual([
      expect.stringContaining('thrown'),
      expect.stringContaining('rejected'),
    ]);
    warn.mockRestore();
  });

  it('subscribes the methods of providers marked @OnInventoryEvent, once per instance', async () => {
    const seen: unknown[] = [];

    @Injectable()
    class Subscriber {
      @OnInventoryEvent('equipment.created')
      created({ equipment }: InventoryEvents['equipment.created']): void {
        seen.push(['created', equipment.id]);
      }

      @OnInventoryEvent('equipment.status-set', 'inTransaction')
      async statusSet(
        { status }: InventoryEvents['equipment.status-set'],
        scope: { tx: Transaction },
      ): Promise<void> {
        seen.push(['status-set', status, scope.tx]);
      }
    }

    const ALIAS = Symbol('alias');
    @Module({
      imports: [EventsModule],
      providers: [Subscriber, { provide: ALIAS, useExisting: Subscriber }],
    })
    class TestModule {}

    const app = await NestFactory.createApplicationContext(TestModule, { logger: false });
    try {
      const sut = app.get(InventoryEventBus);
      await sut.transaction(runner, async (_tx, events) => {
        await events.emit('equipment.status-set', { equipmentId: 'e1', status: 'inactive' });
        await events.emit('equipment.created', { equipment: { id: 'e1' } as Equipment });
      });
      expect(seen).toEqual([
        ['status-set', 'inactive', tx],
        ['created', 'e1'],
      ]);
    } finally {
      await app.close();
    }
  });
});
