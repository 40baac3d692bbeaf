import pino from 'pino';
import { errorCode } from '../data/errors.ts';

export type Logger = pino.Logger;

export interface LoggerOptions {
  /** pino's level name (the config's LOG_LEVEL); `info` (one line per request) by default. */
  level?: string;
  /** Where the JSON lines go; standard output, buffered (`bufferedOutput`), by default. Tests pass their own. */
  destination?: pino.DestinationStream;
}

/** How long a line may wait in the buffer of `bufferedOutput` before it is written. */
export const LOG_FLUSH_MS = 1_000;

/**
 * A file descriptor written in blocks of 4 KB, or every `LOG_FLUSH_MS` when fewer lines came.
 * One write per line cost the request path 35-45 µs per request here (a system call each, on
 * a virtual machine); in blocks it costs a few (docs/benchmarks.md, "Where the request path
 * spends its time"). What is buffered is written when the process exits, even on an uncaught
 * error (pino flushes it); only a SIGKILL loses it, at most the last second of lines.
 */
export function bufferedOutput(fd: number): pino.DestinationStream {
  const output = pino.destination({ dest: fd, sync: false, minLength: 4096 });
  setInterval(() => {
    if (!(output as { destroyed?: boolean }).destroyed) output.flush();
  }, LOG_FLUSH_MS).unref();
  return output;
}

/**
 * The service's structured log: one JSON object per line on standard output, with an ISO time,
 * the level by name and the service's name. What the lines hold is decided where they are
 * written (src/http/observability.ts); no line carries a request's headers or query string, so no key.
 */
export function createLogger({ level = 'info', destination = bufferedOutput(1) }: LoggerOptions = {}): Logger {
  return pino(
    {
      level,
      base: { service: 'advertiser-lookup-api', pid: process.pid },
      timestamp: pino.stdTimeFunctions.isoTime,
      formatters: { level: (label) => ({ level: label }) },
      serializers: { err: errorSummary },
      // Defence in depth: should anything ever log an object with a key header, it is censored.
      redact: {
        paths: [
          'authorization',
          'x-api-key',
          'headers',
          'query',
          '*.authorization',
          '*["x-api-key"]',
          '*.headers',
          '*.query',
        ],
        censor: '[redacted]',
      },
    },
    destination,
  );
}

/** For apps built without a logger (most tests): logs nothing. */
export const silentLogger: Logger = pino({ level: 'silent' });

/**
 * An error as a log line needs it. Only the name, code, message and stack: a database error's other
 * fields (`detail`, `where`) can quote values, and its query and parameters are never wanted.
 */
function errorSummary(error: unknown) {
  if (!(error instanceof Error)) return { message: String(error) };
  const code = errorCode(error);
  return { type: error.name, ...(code !== undefined ? { code } : {}), message: error.message, stack: error.stack };
}
