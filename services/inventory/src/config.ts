import { coreEnv, databaseEnv, httpPortEnv } from '@cm/platform';
import { z } from 'zod';

export const configSchema = z.object({ ...coreEnv, ...databaseEnv, ...httpPortEnv(9102) });
export type Config = z.infer<typeof configSchema>;
