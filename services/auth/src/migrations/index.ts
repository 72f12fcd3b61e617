import { CreateUsers1732300000000 } from './1732300000000-create-users';
import { NormaliseUsernames1732800000000 } from './1732800000000-normalise-usernames';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateUsers1732300000000, NormaliseUsernames1732800000000];
