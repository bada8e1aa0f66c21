import { resolve } from 'node:path';

/** Operator configuration (README: Configuration): environment variables, with command-line flags winning. */
export interface Config {
  port: number;
  host: string;
  databasePath: string;
  /** `postgres://…`: the server runs on PostgreSQL instead of the SQLite file at `databasePath`. */
  databaseUrl: string | undefined;
  /** Connections one process opens to PostgreSQL at most. */
  databasePoolSize: number;
  publicUrl: string;
  webhookRetrySchedule: number[];
  webhookTimeoutMs: number;
  calendarSyncIntervalSeconds: number;
  rateLimitPerMinute: number;
  publicBookingsPerMinute: number;
  publicRequestsPerMinute: number;
  trustProxy: boolean;
  eventRetentionDays: number;
  paymentHoldMinutes: number;
  stripeSecretKey: string | undefined;
  stripeWebhookSecret: string | undefined;
  /** Where Stripe's API is reached; only tests point it elsewhere. */
  stripeApiBase: string | undefined;
  outboundAllowPrivate: boolean;
  /** `smtp://…` or `smtps://…`; unset: guest e-mails are recorded SKIPPED and never sent. */
  smtpUrl: string | undefined;
  /** The From of guest e-mails. */
  mailFrom: string;
  /** Hours before the start a reminder goes out; 0 turns reminders off. */
  reminderHours: number;
  logLevel: LogLevel;
}

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {}

export interface ConfigFlags {
  port?: string;
  host?: string;
  db?: string;
  databaseUrl?: string;
}

function integer(name: string, raw: string | undefined, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be a whole number, got "${raw}"`);
  const value = Number(raw.trim());
  if (value < min || value > max) throw new ConfigError(`${name} must be between ${min} and ${max}, got ${value}`);
  return value;
}

function boolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '') return false;
  const v = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be true or false, got "${raw}"`);
}

function schedule(raw: string | undefined): number[] {
  const text = raw === undefined || raw.trim() === '' ? '5,300,1800,7200,18000,36000,36000' : raw;
  const parts = text.split(',').map((p) => p.trim());
  if (parts.some((p) => !/^\d+(\.\d+)?$/.test(p))) {
    throw new ConfigError(`WEBHOOK_RETRY_SCHEDULE must be comma-separated seconds, got "${raw}"`);
  }
  return parts.map(Number);
}

function hours(name: string, raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) throw new ConfigError(`${name} must be a number of hours (decimals allowed), got "${raw}"`);
  const value = Number(raw.trim());
  if (value > 720) throw new ConfigError(`${name} must be at most 720 hours, got ${value}`);
  return value;
}

function smtpUrl(raw: string | undefined): string | undefined {
  const value = optional(raw);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    // The value may hold a password: never repeat it.
    throw new ConfigError('SMTP_URL must be smtp://[user:pass@]host:port or smtps://…');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError('SMTP_URL must be smtp://[user:pass@]host:port or smtps://…');
  }
  return value;
}

function mailFrom(raw: string | undefined, publicUrl: string): string {
  const value = optional(raw) ?? `Outing <no-reply@${new URL(publicUrl).hostname}>`;
  if (/[\r\n]/.test(value)) throw new ConfigError('MAIL_FROM must be one line');
  if (!/@[^\s@>]+>?$/.test(value)) throw new ConfigError(`MAIL_FROM must be an address, optionally with a name: "Tours <book@example.com>", got "${value}"`);
  return value;
}

function optional(raw: string | undefined): string | undefined {
  return raw === undefined || raw.trim() === '' ? undefined : raw.trim();
}

/** A PostgreSQL connection URL, checked for its scheme (the driver reads the rest). */
function databaseUrl(name: string, raw: string | undefined): string | undefined {
  const value = optional(raw);
  if (value === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be a postgres:// URL`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') throw new ConfigError(`${name} must be a postgres:// URL, got ${url.protocol}//…`);
  return value;
}

/**
 * Where the data lives: a flag beats the environment, and a URL in the environment beats a path in
 * the environment. Both as flags is a mistake worth stopping for.
 */
function databaseOf(env: NodeJS.ProcessEnv, flags: ConfigFlags): { path: string; url: string | undefined } {
  if (flags.db !== undefined && flags.databaseUrl !== undefined) {
    throw new ConfigError('Give --db (a SQLite file) or --database-url (PostgreSQL), not both');
  }
  const path = resolve(flags.db ?? optional(env.DATABASE_PATH) ?? './data/outing.db');
  if (flags.databaseUrl !== undefined) return { path, url: databaseUrl('--database-url', flags.databaseUrl) };
  if (flags.db !== undefined) return { path, url: undefined };
  return { path, url: databaseUrl('DATABASE_URL', env.DATABASE_URL) };
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, flags: ConfigFlags = {}): Config {
  const port = integer('port', flags.port ?? env.PORT, 3000, 0, 65535);
  const logLevel = (env.LOG_LEVEL?.trim().toLowerCase() || 'info') as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}`);
  const publicUrl = (optional(env.PUBLIC_URL) ?? `http://localhost:${port}`).replace(/\/+$/, '');
  try {
    new URL(publicUrl);
  } catch {
    throw new ConfigError(`PUBLIC_URL must be an absolute URL, got "${publicUrl}"`);
  }
  const database = databaseOf(env, flags);
  return {
    port,
    host: flags.host ?? optional(env.HOST) ?? '127.0.0.1',
    databasePath: database.path,
    databaseUrl: database.url,
    databasePoolSize: integer('DATABASE_POOL_SIZE', env.DATABASE_POOL_SIZE, 10, 1, 1000),
    publicUrl,
    webhookRetrySchedule: schedule(env.WEBHOOK_RETRY_SCHEDULE),
    webhookTimeoutMs: integer('WEBHOOK_TIMEOUT_MS', env.WEBHOOK_TIMEOUT_MS, 10_000, 1, 300_000),
    calendarSyncIntervalSeconds: integer('CALENDAR_SYNC_INTERVAL', env.CALENDAR_SYNC_INTERVAL, 900, 1),
    rateLimitPerMinute: integer('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE, 1200, 0),
    publicBookingsPerMinute: integer('PUBLIC_BOOKINGS_PER_MINUTE', env.PUBLIC_BOOKINGS_PER_MINUTE, 20, 0),
    publicRequestsPerMinute: integer('PUBLIC_REQUESTS_PER_MINUTE', env.PUBLIC_REQUESTS_PER_MINUTE, 300, 0),
    trustProxy: boolean('TRUST_PROXY', env.TRUST_PROXY),
    eventRetentionDays: integer('EVENT_RETENTION_DAYS', env.EVENT_RETENTION_DAYS, 30, 1),
    paymentHoldMinutes: integer('PAYMENT_HOLD_MINUTES', env.PAYMENT_HOLD_MINUTES, 30, 1, 1440),
    stripeSecretKey: optional(env.STRIPE_SECRET_KEY),
    stripeWebhookSecret: optional(env.STRIPE_WEBHOOK_SECRET),
    stripeApiBase: optional(env.STRIPE_API_BASE),
    outboundAllowPrivate: boolean('OUTBOUND_ALLOW_PRIVATE', env.OUTBOUND_ALLOW_PRIVATE),
    smtpUrl: smtpUrl(env.SMTP_URL),
    mailFrom: mailFrom(env.MAIL_FROM, publicUrl),
    reminderHours: hours('REMINDER_HOURS', env.REMINDER_HOURS, 24),
    logLevel,
  };
}
