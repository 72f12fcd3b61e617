import { startTelemetry } from '@cm/platform/telemetry';

if (process.argv[2] === 'migrate') {
  // The migration job: applies this service's schema migrations and exits; no NATS, no traces.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { runMigrations } = require('@cm/platform') as typeof import('@cm/platform');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  runMigrations('media', (require('./migrations') as typeof import('./migrations')).migrations);
} else {
  startTelemetry({ serviceName: 'media' });

  // Required only now, so that Nest, pg and http are loaded after their instrumentation.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  (require('./server') as typeof import('./server')).main();
}
