import { type PipeTransform } from '@nestjs/common';
import { type z } from 'zod';
import { AppError } from './errors';

/** Validates a message or request part with a contract schema; a failure is a VALIDATION_FAILED AppError. */
export class ZodPipe<S extends z.ZodType> implements PipeTransform<unknown, z.infer<S>> {
  constructor(private readonly schema: S) {}

  transform(value: unknown): z.infer<S> {
    const result = this.schema.safeParse(value);
    if (!result.success) throw AppError.fromZod(result.error);
    return result.data;
  }
}
