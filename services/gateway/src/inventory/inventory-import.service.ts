import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import {
  checkImportHeader,
  ErrorCode,
  type ImportAnswer,
  type ImportError,
  importError,
  IMPORT_ERRORS_SHOWN,
  importFileMessages,
  type ImportRow,
  importRowPictures,
  type ImportRunAnswer,
  type InventoryCsvColumn,
  keyOfObjectPath,
  MAX_IMPORT_BYTES,
  MAX_IMPORT_ROWS,
  messages,
  parseImportLine,
  pictureMessages,
} from '@cm/contracts';
import { AppError, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import { CsvError, parse } from 'csv-parse';
import type { Request } from 'express';
import { AuditLog } from '../audit/audit-log';
import { type Config } from '../config';
import { IMPORT_IDLE_TIMERS, type IdleTimers } from '../http/idle-timers';
import { OneFileAtATime } from '../media/single-file-upload';

/** A staged batch's JSON stays well under NATS's 1 MB message limit, whatever the notes hold. */
const STAGE_BATCH_BYTES = 400 * 1024;
/** Planning and applying 50,000 lines in one transaction takes far longer than an ordinary call. */
const RUN_TIMEOUT_MS = 120_000;
const STAGE_TIMEOUT_MS = 30_000;
/** Picture paths media is asked about at once. */
const PICTURE_KEYS_PER_CALL = 500;

const invalidFile = (message: string) => new AppError(ErrorCode.IMPORT_INVALID_FILE, message);
const tooLarge = () => new AppError(ErrorCode.FILE_TOO_LARGE, importFileMessages.tooLarge(MAX_IMPORT_BYTES));
const noFile = () =>
  new AppError(ErrorCode.NO_FILE, 'Send the CSV file as multipart/form-data in the field "file".');

const pictureLabels: Partial<Record<InventoryCsvColumn, string>> = {
  building_image_url: 'Building photo',
  room_image_url: 'Room photo',
  room_wiring_diagram_url: 'Wiring diagram',
  room_seating_layout_url: 'Seating layout',
  equipment_image_url: 'Equipment photo',
};

interface Checked {
  rows: ImportRow[];
  lines: number;
  errors: ImportError[];
}

/**
 * `POST /api/inventory/import`: reads the uploaded CSV (at most the upload limit, held in memory:
 * one import at a time per gateway), checks each line by itself, stages the good lines with
 * inventory a batch at a time and has it plan them against the inventory and, unless it is a dry
 * run, apply them. The parser is csv-parse (RFC 4180 quoting, line breaks in quoted cells).
 */
@Injectable()
export class InventoryImportService {
  private readonly files: OneFileAtATime;

  constructor(
    private readonly rpc: RpcClient,
    private readonly audit: AuditLog,
    @Inject(CONFIG) config: Config,
    @Inject(IMPORT_IDLE_TIMERS) timers: IdleTimers,
  ) {
    this.files = new OneFileAtATime({
      maxBytes: MAX_IMPORT_BYTES,
      idleMs: config.UPLOAD_IDLE_TIMEOUT_MS,
      timers,
      work: 'the import',
      invalid: invalidFile,
      tooLarge,
      noFile,
      busyMessage: 'Another import is being read just now. Try again when it is done.',
    });
  }

  import(req: Request, dryRun: boolean): Promise<ImportAnswer> {
    return this.files.receive(req, async ({ bytes, fileName }) => {
      const checked = await this.check(bytes);
      await this.checkPictures(checked);
      const { importId, changes, changesNotListed, ...answer } = await this.plan(checked, dryRun);
      // One entry per import, refused ones too; the errors are the person's to read, not the log's.
      const { errors: _errors, ...summary } = answer;
      await this.audit.write(req, {
        action: 'create',
        entityType: 'import',
        entityId: importId,
        before: null,
        after: { fileName, ...summary, changes, changesNotListed },
      });
      if (!dryRun && !answer.applied) {
        throw new AppError(
          ErrorCode.IMPORT_HAS_ERRORS,
          `${importFileMessages.hasErrors(answer.errorCount)} ${answer.errors[0]?.message ?? ''}`.trim(),
          answer.errors.map((e) => ({
            path: `line ${e.line ?? '-'}, ${e.column ?? '-'}`,
            message: e.message,
          })),
        );
      }
      return answer;
    });
  }

  /** Decodes, parses and checks each line by itself: the header, the cells, the number of rows. */
  private async check(file: Buffer): Promise<Checked> {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(file);
    } catch {
      throw invalidFile(importFileMessages.notUtf8);
    }
    if (text.trim() === '') throw invalidFile(importFileMessages.empty);

    const records = Readable.from([text]).pipe(
      parse({ relax_column_count: true, skip_empty_lines: true, info: true }),
    );
    const checked: Checked = { rows: [], lines: 0, errors: [] };
    let columns: InventoryCsvColumn[] | null = null;
    try {
      for await (const { record, info } of records as AsyncIterable<{
        record: string[];
        info: { lines: number };
      }>) {
        if (!columns) {
          const header = checkImportHeader(record);
          if ('error' in header) throw invalidFile(header.error);
          columns = header.columns;
          continue;
        }
        if (++checked.lines > MAX_IMPORT_ROWS) {
          records.destroy();
          throw new AppError(ErrorCode.PAYLOAD_TOO_LARGE, importFileMessages.tooManyRows(MAX_IMPORT_ROWS));
        }
        const { row, errors } = parseImportLine(columns, record, info.lines);
        if (row) checked.rows.push(row);
        checked.errors.push(...errors);
      }
    } catch (error) {
      if (error instanceof CsvError) {
        const line = (error as CsvError & { lines?: number }).lines ?? 0;
        throw invalidFile(importFileMessages.malformed(line, error.message.replace(/^[^:]*:\s*/, '')));
      }
      throw error;
    }
    if (!columns) throw invalidFile(importFileMessages.empty);
    return checked;
  }

  /** A picture path must name an object media registered, as the forms' fields must. */
  private async checkPictures(checked: Checked): Promise<void> {
    const named = checked.rows.flatMap((row) =>
      importRowPictures(row).map((p) => ({ ...p, row, key: keyOfObjectPath(p.path) })),
    );
    const keys = [...new Set(named.flatMap((n) => (n.key ? [n.key] : [])))];
    const registered = new Set<string>();
    for (let i = 0; i < keys.length; i += PICTURE_KEYS_PER_CALL) {
      const answer = await this.rpc.send(messages.media.findRegistered, {
        keys: keys.slice(i, i + PICTURE_KEYS_PER_CALL),
      });
      answer.registered.forEach((k) => registered.add(k));
    }
    const refused = new Set<ImportRow>();
    for (const n of named) {
      if (n.key && registered.has(n.key)) continue;
      refused.add(n.row);
      const label = pictureLabels[n.column] ?? 'Picture';
      checked.errors.push(importError(n.row.line, n.column, pictureMessages.notRegistered(label)));
    }
    if (refused.size) checked.rows = checked.rows.filter((r) => !refused.has(r));
  }

  /** Stages the lines with inventory, a batch per message, and runs the import there. */
  private async plan(checked: Checked, dryRun: boolean): Promise<ImportRunAnswer & { importId: string }> {
    const importId = randomUUID();
    let seq = 0;
    let batch: ImportRow[] = [];
    let bytes = 0;
    const flush = async () => {
      if (batch.length === 0) return;
      await this.rpc.send(
        messages.inventory.stageImport,
        { importId, seq: seq++, rows: batch },
        { timeoutMs: STAGE_TIMEOUT_MS },
      );
      batch = [];
      bytes = 0;
    };
    for (const row of checked.rows) {
      const size = JSON.stringify(row).length;
      if (bytes + size > STAGE_BATCH_BYTES) await flush();
      batch.push(row);
      bytes += size;
    }
    await flush();
    const errors = checked.errors.sort((a, b) => (a.line ?? 0) - (b.line ?? 0));
    const answer = await this.rpc.send(
      messages.inventory.runImport,
      {
        importId,
        dryRun,
        rows: checked.lines,
        errors: errors.slice(0, IMPORT_ERRORS_SHOWN),
        errorCount: errors.length,
      },
      { timeoutMs: RUN_TIMEOUT_MS },
    );
    return { ...answer, importId };
  }
}
