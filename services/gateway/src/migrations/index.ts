import { CreateSessions1732300000000 } from './1732300000000-create-sessions';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateSessions1732300000000];
