// The catalogue's public face: what status and alerting may use of it. The catalogue reads
// neither; what follows its edits above it reacts to its events (`equipment.*` in
// shared/events/inventory-events.ts), to which alerting subscribes.
export {};
