/**
 * Where the delivery outbox reads the time: when a message is due (an alert's waits out its group
 * window), when a lease or a retry delay runs out. A test holds it to keep a window open on a
 * loaded machine instead of racing it. Replicas' clocks agree far more closely than the shortest
 * of these delays, as they must for the alert states' own times.
 */
export interface DeliveryClock {
  now(): Date;
}
export const DELIVERY_CLOCK = Symbol('DELIVERY_CLOCK');
/** One per application, so that holding one replica's clock leaves another's alone. */
export const deliveryClockProvider = {
  provide: DELIVERY_CLOCK,
  useFactory: (): DeliveryClock => ({ now: () => new Date() }),
};
