import type { LogLevel } from './config.js';

const RANK: Record<LogLevel, number> = { debug: 10, info: 20, warn: 30, error: 40, silent: 100 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
  /** Whether lines of level `at` are written: a caller may skip building fields nobody reads. */
  logs(at: LogLevel): boolean;
}

/** JSON lines on stdout. Callers pass only fields that are safe to log: never keys, tokens or secrets. */
export function createLogger(level: LogLevel, write: (line: string) => void = (l) => process.stdout.write(l)): Logger {
  const logs = (at: LogLevel) => RANK[at] >= RANK[level];
  const emit = (at: LogLevel, msg: string, fields?: Record<string, unknown>) => {
    if (!logs(at)) return;
    write(`${JSON.stringify({ time: new Date().toISOString(), level: at, msg, ...fields })}\n`);
  };
  return {
    debug: (msg, fields) => emit('debug', msg, fields),
    info: (msg, fields) => emit('info', msg, fields),
    warn: (msg, fields) => emit('warn', msg, fields),
    error: (msg, fields) => emit('error', msg, fields),
    logs,
  };
}

/** The request target as it may be logged (server/redact.ts). */
export { redactTarget } from './redact.js';
