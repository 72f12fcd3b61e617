export * from './metrics-http.controller';
export * from './metrics.service';
export * from './platform-metrics';
export * from './http-metrics.middleware';
// A service's own metrics are prom-client's, from here so that the platform holds the dependency.
export { Counter, Gauge, Histogram, Registry } from 'prom-client';
