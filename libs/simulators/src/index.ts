// Each simulator is a small server on a loopback address that speaks one device protocol the
// monitor probes. Tests, `npm run demo` and the benchmarks start them; nothing here reaches a
// real network.
export * from './snmp';
export * from './pjlink';
