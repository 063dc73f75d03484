// Structured JSON logs (pino). Request logs carry ids, account, type, status, durations and sizes; never field values.
import pino, { type Logger } from 'pino';

export function createLogger(level: string): Logger {
  return pino({ level, base: { service: 'docgen' }, timestamp: pino.stdTimeFunctions.isoTime });
}
