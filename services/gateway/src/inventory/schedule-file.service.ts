import { ErrorCode, MAX_SCHEDULE_FILE_BYTES, messages, type ScheduleSource } from '@cm/contracts';
import { AppError, CONFIG, RpcClient } from '@cm/platform';
import { Inject, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { type Config } from '../config';
import { IMPORT_IDLE_TIMERS, type IdleTimers } from '../http/idle-timers';
import { OneFileAtATime } from '../media/single-file-upload';

const invalid = (message: string) => new AppError(ErrorCode.SCHEDULE_FILE_INVALID, message);
const tooLarge = () =>
  new AppError(
    ErrorCode.FILE_TOO_LARGE,
    `The file is larger than ${MAX_SCHEDULE_FILE_BYTES / 1024} kB. Export fewer weeks, or one building at a time.`,
  );
const noFile = () =>
  new AppError(
    ErrorCode.NO_FILE,
    'Send the timetable (.ics or CSV) as multipart/form-data in the field "file".',
  );

/**
 * `POST /api/schedule-sources/{id}/file`: reads the uploaded timetable as the inventory import
 * reads its CSV (the same receiver, limits checked as the bytes arrive, one at a time per
 * gateway), and hands its text to inventory, which reads it and answers its errors by line.
 */
@Injectable()
export class ScheduleFileService {
  private readonly files: OneFileAtATime;

  constructor(
    private readonly rpc: RpcClient,
    @Inject(CONFIG) config: Config,
    @Inject(IMPORT_IDLE_TIMERS) timers: IdleTimers,
  ) {
    this.files = new OneFileAtATime({
      maxBytes: MAX_SCHEDULE_FILE_BYTES,
      idleMs: config.UPLOAD_IDLE_TIMEOUT_MS,
      timers,
      work: 'the upload',
      invalid,
      tooLarge,
      noFile,
      busyMessage: 'Another timetable is being read just now. Try again in a moment.',
    });
  }

  upload(req: Request, id: string): Promise<ScheduleSource> {
    return this.files.receive(req, async ({ bytes, fileName }) => {
      let text: string;
      try {
        text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
      } catch {
        throw invalid(
          'The file is not UTF-8 text. Save or export it as UTF-8 (an .ics file or a CSV) and upload it again.',
        );
      }
      if (text.trim() === '') throw invalid('The file is empty.');
      return this.rpc.send(messages.inventory.uploadScheduleFile, { id, fileName, text });
    });
  }
}
