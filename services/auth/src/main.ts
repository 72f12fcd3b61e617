import { startTelemetry } from '@cm/platform/telemetry';

startTelemetry({ serviceName: 'auth' });

// Required only now, so that Nest, pg and http are loaded after their instrumentation.
// eslint-disable-next-line @typescript-eslint/no-require-imports
(require('./server') as typeof import('./server')).main();
