import { CreateInventory1732500000000 } from './1732500000000-create-inventory';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateInventory1732500000000];
