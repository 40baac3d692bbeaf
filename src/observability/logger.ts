import pino from 'pino';
import { errorCode } from '../data/errors.ts';

export type Logger = pino.Logger;

export interface LoggerOptions {
  /** pino's level name; LOG_LEVEL by default, else `info` (one line per request). */
  level?: string;
  /** Where the JSON lines go; standard output by default. Tests pass a stream of their own. */
  destination?: pino.DestinationStream;
}

/**
 * The service's structured log: one JSON object per line on standard output, with an ISO time,
 * the level by name and the service's name. What the lines hold is decided where they are
 * written (src/http/observability.ts); no line carries a request's headers or query string, so no key.
 */
export function createLogger({
  level = process.env.LOG_LEVEL || 'info',
  destination = pino.destination({ dest: 1, sync: true }),
}: LoggerOptions = {}): Logger {
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
