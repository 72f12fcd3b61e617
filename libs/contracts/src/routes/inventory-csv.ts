import { ErrorCode } from '../errors';
import {
  importAnswerSchema,
  importQuerySchema,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
} from '../inventory-import';
import { type ApiRouteDef } from '../route-def';

/** The whole inventory as a CSV, out and in (docs/csv-format.md). */
export const inventoryCsvRoutes = {
  exportInventory: {
    method: 'GET',
    path: '/api/inventory/export.csv',
    summary:
      'Every equipment with its room and building as CSV (rooms without equipment and buildings without rooms on lines of their own), every field of each, streamed as it is read; the columns are in docs/csv-format.md',
    tag: 'Import and export',
    access: 'user',
    responseContentType: 'text/csv',
  },
  importInventory: {
    method: 'POST',
    path: '/api/inventory/import',
    summary: `Import a CSV in the export's columns (multipart field "file", UTF-8, at most ${MAX_IMPORT_BYTES} bytes and ${MAX_IMPORT_ROWS} rows; a larger file is answered 413 before it is read). Buildings match by name, rooms by name within their building, equipment by serial number, else by name within its room. With dryRun=true answers what it would create, update and leave unchanged, and every error with its line and column; without, applies all of it in one transaction, or nothing (422 with the errors)`,
    tag: 'Import and export',
    access: 'admin',
    query: importQuerySchema,
    bodyContentType: 'multipart/form-data',
    response: importAnswerSchema,
    errors: [
      ErrorCode.NO_FILE,
      ErrorCode.FILE_TOO_LARGE,
      ErrorCode.IMPORT_INVALID_FILE,
      ErrorCode.IMPORT_HAS_ERRORS,
      ErrorCode.TOO_MANY_UPLOADS,
      ErrorCode.UPLOAD_TIMEOUT,
      ErrorCode.ADDRESS_LIMIT_REACHED,
    ],
  },
} as const satisfies Record<string, ApiRouteDef>;
