// Each simulator is a small server on a loopback address that speaks one device protocol the
// monitor probes. Tests, `npm run demo` and the benchmarks start them; nothing here reaches a
// real network.
export * from './snmp';
export * from './pjlink';
export * from './extron-simulator';
export * from './http-simulator';
export * from './qsys-simulator';
export * from './tcp-simulator';
export type { TcpListener } from './tcp-listener';
export { selfSignedCertificate, type Certificate } from './self-signed-certificate';
