import { trace } from '@opentelemetry/api';
import type { LoggerService } from '@nestjs/common';

const levels = { error: 0, warn: 1, info: 2, debug: 3 } as const;
export type LogLevel = keyof typeof levels;

/**
 * One JSON object per line on stdout, carrying the active trace and span ids,
 * so a log line leads straight to its trace.
 */
export class JsonLogger implements LoggerService {
  constructor(
    private readonly service: string,
    private readonly level: LogLevel = 'info',
    private readonly out: (line: string) => void = (line) => process.stdout.write(line + '\n'),
  ) {}

  log(message: unknown, ...rest: unknown[]) {
    this.write('info', message, rest);
  }
  error(message: unknown, ...rest: unknown[]) {
    this.write('error', message, rest);
  }
  warn(message: unknown, ...rest: unknown[]) {
    this.write('warn', message, rest);
  }
  debug(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }
  verbose(message: unknown, ...rest: unknown[]) {
    this.write('debug', message, rest);
  }

  private write(level: LogLevel, message: unknown, rest: unknown[]) {
    if (levels[level] > levels[this.level]) return;
    // Nest passes the context (the logging class) as the last string argument.
    const context = typeof rest[rest.length - 1] === 'string' ? (rest.pop() as string) : undefined;
    const entry: Record<string, unknown> = { time: new Date().toISOString(), level, service: this.service };
    if (context) entry.context = context;
    if (message instanceof Error) {
      entry.msg = message.message;
      entry.stack = message.stack;
    } else if (typeof message === 'object' && message !== null) {
      Object.assign(entry, message);
    } else {
      entry.msg = String(message);
    }
    for (const extra of rest) {
      if (typeof extra === 'string' && extra.includes('\n    at ')) entry.stack = extra;
      else if (extra instanceof Error) entry.stack = extra.stack;
      else if (extra !== undefined) entry.detail = extra;
    }
    const span = trace.getActiveSpan()?.spanContext();
    if (span) {
      entry.trace_id = span.traceId;
      entry.span_id = span.spanId;
    }
    this.out(JSON.stringify(entry));
  }
}

/** The trace id of the active span, as the log lines carry it; undefined outside a trace. */
export function activeTraceId(): string | undefined {
  return trace.getActiveSpan()?.spanContext().traceId;
}
