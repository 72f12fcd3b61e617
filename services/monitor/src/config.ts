import { coreEnv, httpPortEnv } from '@cm/platform';
import { z } from 'zod';

export const configSchema = z.object({ ...coreEnv, ...httpPortEnv(9104) });
export type Config = z.infer<typeof configSchema>;
