import { CreateInventory1732500000000 } from './1732500000000-create-inventory';
import { StatusSpans1763900000000 } from './1763900000000-status-spans';

/** Applied in order by the platform's DatabaseModule. */
export const migrations = [CreateInventory1732500000000, StatusSpans1763900000000];
