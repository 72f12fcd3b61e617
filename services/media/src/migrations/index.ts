import { CreateObjects1732400000000 } from './1732400000000-create-objects';
import { AddRegisteredAs1732400000001 } from './1732400000001-add-registered-as';
import { DropAttachedStatus1732400000002 } from './1732400000002-drop-attached-status';
import { AddLinkExpiresAt1732400000003 } from './1732400000003-add-link-expires-at';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [
  CreateObjects1732400000000,
  AddRegisteredAs1732400000001,
  DropAttachedStatus1732400000002,
  AddLinkExpiresAt1732400000003,
];
