import { CreateUsers1732300000000 } from './1732300000000-create-users';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateUsers1732300000000];
