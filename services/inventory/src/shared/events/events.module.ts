import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { InventoryEventBus } from './inventory-event-bus';

/** Inventory's in-process events (`InventoryEvents`), for every context. */
@Global()
@Module({ imports: [DiscoveryModule], providers: [InventoryEventBus], exports: [InventoryEventBus] })
export class EventsModule {}
