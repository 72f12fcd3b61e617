import { Injectable, Logger, type OnModuleInit, Optional } from '@nestjs/common';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import { type Transaction } from '../database/table.repository';
import { type InventoryEventName, type InventoryEvents } from './inventory-events';

/** Emits events inside one transaction: see `InventoryEventBus.transaction`. */
export interface TransactionEvents {
  /**
   * Runs the event's `inTransaction` subscribers now, in this transaction (their failure fails
   * it), and holds the event for its `afterCommit` subscribers until the commit.
   */
  emit<K extends InventoryEventName>(name: K, payload: InventoryEvents[K]): Promise<void>;
}

/** What an `inTransaction` subscriber is handed besides the payload: the transaction, to share it. */
export interface TransactionScope {
  tx: Transaction;
  events: TransactionEvents;
}

type AfterCommitHandler<K extends InventoryEventName> = (payload: InventoryEvents[K]) => unknown;
type InTransactionHandler<K extends InventoryEventName> = (
  payload: InventoryEvents[K],
  scope: TransactionScope,
) => Promise<unknown>;

type Phase = 'afterCommit' | 'inTransaction';

interface Subscription {
  name: InventoryEventName;
  phase: Phase;
}

/** Anything that runs work in a transaction of its own, such as a repository. */
export interface TransactionRunner {
  transaction<T>(work: (tx: Transaction) => Promise<T>): Promise<T>;
}

const SUBSCRIPTIONS = Symbol('InventoryEventSubscriptions');

/**
 * Marks a provider's method as a reaction to an event: by default after the commit (its failure
 * is logged and fails nothing), or `'inTransaction'`, handed the emitting transaction. The method's
 * parameters are checked against the event's payload.
 */
export function OnInventoryEvent<K extends InventoryEventName>(
  name: K,
  phase?: 'afterCommit',
): <M extends AfterCommitHandler<K>>(
  target: object,
  key: string | symbol,
  method: TypedPropertyDescriptor<M>,
) => void;
export function OnInventoryEvent<K extends InventoryEventName>(
  name: K,
  phase: 'inTransaction',
): <M extends InTransactionHandler<K>>(
  target: object,
  key: string | symbol,
  method: TypedPropertyDescriptor<M>,
) => void;
export function OnInventoryEvent(name: InventoryEventName, phase: Phase = 'afterCommit') {
  return (_target: object, _key: string | symbol, method: PropertyDescriptor): void => {
    const fn = method.value as object;
    const subscriptions: Subscription[] = Reflect.getMetadata(SUBSCRIPTIONS, fn) ?? [];
    Reflect.defineMetadata(SUBSCRIPTIONS, [...subscriptions, { name, phase }], fn);
  };
}

/** A subscriber as held: its payload checked by `on`, `onInTransaction` or the decorator. */
type Handler = (payload: unknown, scope?: TransactionScope) => unknown;

/**
 * Inventory's in-process events (the map is `InventoryEvents`). Subscribers are the methods of
 * providers marked `@OnInventoryEvent`, found when the application starts, or registered with
 * `on` and `onInTransaction`.
 */
@Injectable()
export class InventoryEventBus implements OnModuleInit {
  private readonly logger = new Logger(InventoryEventBus.name);
  private readonly subscribers = new Map<string, { label: string; handle: Handler }[]>();

  constructor(
    @Optional() private readonly discovery?: DiscoveryService,
    @Optional() private readonly scanner?: MetadataScanner,
  ) {}

  onModuleInit(): void {
    if (!this.discovery || !this.scanner) return;
    // A provider under two tokens (`useExisting`) is one instance, subscribed once.
    const instances = new Set<object>();
    for (const { instance } of this.discovery.getProviders()) {
      if (instance && typeof instance === 'object') instances.add(instance as object);
    }
    for (const instance of instances) {
      const prototype = Object.getPrototypeOf(instance) as Record<string, Handler>;
      for (const key of this.scanner.getAllMethodNames(prototype)) {
        const subscriptions: Subscription[] = Reflect.getMetadata(SUBSCRIPTIONS, prototype[key]) ?? [];
        for (const { name, phase } of subscriptions) {
          const label = `${instance.constructor.name}.${key}`;
          this.subscribe(name, phase, label, prototype[key].bind(instance));
        }
      }
    }
  }

  /** Subscribes after the commit. */
  on<K extends InventoryEventName>(name: K, handle: AfterCommitHandler<K>, label: string = name): void {
    this.subscribe(name, 'afterCommit', label, handle as Handler);
  }

  /** Subscribes inside the emitting transaction. */
  onInTransaction<K extends InventoryEventName>(
    name: K,
    handle: InTransactionHandler<K>,
    label: string = name,
  ): void {
    this.subscribe(name, 'inTransaction', label, handle as Handler);
  }

  private subscribe(name: InventoryEventName, phase: Phase, label: string, handle: Handler): void {
    const key = `${phase}:${name}`;
    this.subscribers.set(key, [...(this.subscribers.get(key) ?? []), { label, handle }]);
  }

  private subscribersOf(phase: Phase, name: InventoryEventName) {
    return this.subscribers.get(`${phase}:${name}`) ?? [];
  }

  /**
   * Runs `work` in a transaction of `runner`'s with an emitter bound to it; once the transaction
   * commits, delivers what was emitted to the `afterCommit` subscribers (all started in the order
   * emitted, then awaited) before answering. A rollback delivers nothing.
   */
  async transaction<T>(
    runner: TransactionRunner,
    work: (tx: Transaction, events: TransactionEvents) => Promise<T>,
  ): Promise<T> {
    let held: (() => Promise<void>)[] = [];
    const result = await runner.transaction((tx) => {
      held = [];
      return work(tx, this.emitter(tx, held));
    });
    await Promise.all(held.map((deliver) => deliver()));
    return result;
  }

  private emitter(tx: Transaction, held: (() => Promise<void>)[]): TransactionEvents {
    const events: TransactionEvents = {
      emit: async (name, payload) => {
        for (const { handle } of this.subscribersOf('inTransaction', name))
          await handle(payload, { tx, events });
        for (const { label, handle } of this.subscribersOf('afterCommit', name)) {
          held.push(async () => {
            try {
              await handle(payload);
            } catch (error) {
              this.logger.warn(`${label} after ${name} failed: ${String(error)}`);
            }
          });
        }
      },
    };
    return events;
  }
}
