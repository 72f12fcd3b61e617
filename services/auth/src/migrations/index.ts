import { CreateUsers1732300000000 } from './1732300000000-create-users';
import { NormaliseUsernames1732800000000 } from './1732800000000-normalise-usernames';
import { AddSessionVersion1732800000001 } from './1732800000001-add-session-version';
import { AddTotp1764300000000 } from './1764300000000-add-totp';
import { AddExternalIdentity1764600000000 } from './1764600000000-add-external-identity';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [
  CreateUsers1732300000000,
  NormaliseUsernames1732800000000,
  AddSessionVersion1732800000001,
  AddTotp1764300000000,
  AddExternalIdentity1764600000000,
];
