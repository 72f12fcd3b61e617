export * from './metrics-http.controller';
export * from './metrics.service';
export * from './platform-metrics';
export * from './registry';
export * from './http-metrics.middleware';
