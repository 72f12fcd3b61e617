import { CreateObjects1732400000000 } from './1732400000000-create-objects';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateObjects1732400000000];
