import { describe, expect, it } from 'vitest';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.js';

describe('configuration', () => {
  it('has the defaults of the contract', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      databasePath: resolve('./data/outing.db'),
      publicUrl: 'http://localhost:3000',
      webhookRetrySchedule: [5, 300, 1800, 7200, 18000, 36000, 36000],
      webhookTimeoutMs: 10_000,
      calendarSyncIntervalSeconds: 900,
      rateLimitPerMinute: 1200,
      publicBookingsPerMinute: 20,
      publicRequestsPerMinute: 300,
      trustProxy: false,
      eventRetentionDays: 30,
      paymentHoldMinutes: 30,
      stripeSecretKey: undefined,
      stripeWebhookSecret: undefined,
      outboundAllowPrivate: false,
      smtpUrl: undefined,
      mailFrom: 'Outing <no-reply@localhost>',
      reminderHours: 24,
      logLevel: 'info',
    });
  });

  it('reads every variable', () => {
    const config = loadConfig({
      PORT: '8080', HOST: '0.0.0.0', DATABASE_PATH: '/var/lib/outing/o.db', PUBLIC_URL: 'https://book.example.com/',
      WEBHOOK_RETRY_SCHEDULE: '1, 2,3', WEBHOOK_TIMEOUT_MS: '500', CALENDAR_SYNC_INTERVAL: '60', RATE_LIMIT_PER_MINUTE: '0',
      PUBLIC_BOOKINGS_PER_MINUTE: '0', PUBLIC_REQUESTS_PER_MINUTE: '5', TRUST_PROXY: 'true', EVENT_RETENTION_DAYS: '7',
      PAYMENT_HOLD_MINUTES: '45', STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x', OUTBOUND_ALLOW_PRIVATE: '1', LOG_LEVEL: 'WARN',
    });
    expect(config).toMatchObject({
      port: 8080, host: '0.0.0.0', databasePath: '/var/lib/outing/o.db', publicUrl: 'https://book.example.com',
      webhookRetrySchedule: [1, 2, 3], webhookTimeoutMs: 500, calendarSyncIntervalSeconds: 60, rateLimitPerMinute: 0,
      publicBookingsPerMinute: 0, publicRequestsPerMinute: 5, trustProxy: true, eventRetentionDays: 7, paymentHoldMinutes: 45,
      stripeSecretKey: 'sk_test_x', stripeWebhookSecret: 'whsec_x', outboundAllowPrivate: true, logLevel: 'warn',
    });
  });

  it('lets flags win over the environment, and PUBLIC_URL follow the port', () => {
    const config = loadConfig({ PORT: '8080', HOST: '0.0.0.0', DATABASE_PATH: '/a.db' }, { port: '9090', host: '::1', db: '/b.db' });
    expect(config).toMatchObject({ port: 9090, host: '::1', databasePath: '/b.db', publicUrl: 'http://localhost:9090' });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', RATE_LIMIT_PER_MINUTE: '', PUBLIC_URL: ' ', TRUST_PROXY: '' })).toMatchObject({
      port: 3000, rateLimitPerMinute: 1200, publicUrl: 'http://localhost:3000', trustProxy: false,
    });
  });

  it('refuses values it cannot use, naming the variable', () => {
    const bad: Record<string, string>[] = [
      { PORT: 'abc' }, { PORT: '70000' }, { PORT: '-1' }, { RATE_LIMIT_PER_MINUTE: '1.5' }, { TRUST_PROXY: 'maybe' },
      { LOG_LEVEL: 'loud' }, { PUBLIC_URL: 'book.example.com' }, { WEBHOOK_RETRY_SCHEDULE: '5,soon' }, { WEBHOOK_TIMEOUT_MS: '0' },
      { PAYMENT_HOLD_MINUTES: '0' }, { EVENT_RETENTION_DAYS: 'x' }, { SMTP_URL: 'http://mail.example.com' },
      { SMTP_URL: 'smtp://' }, { MAIL_FROM: 'nobody' }, { MAIL_FROM: 'A <a@example.com>\r\nBcc: x@example.com' },
      { REMINDER_HOURS: '-1' }, { REMINDER_HOURS: 'a day' }, { REMINDER_HOURS: '721' },
    ];
    for (const env of bad) {
      const name = Object.keys(env)[0] ?? '';
      expect(() => loadConfig(env), name).toThrow(ConfigError);
      if (name !== 'PORT') expect(() => loadConfig(env)).toThrow(name);
    }
  });

  it('reads the mail settings: decimal reminder hours, a From that follows PUBLIC_URL, never echoing SMTP_URL', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@smtp.example.com:465', REMINDER_HOURS: '0.5', PUBLIC_URL: 'https://book.example.com' })).toMatchObject({
      smtpUrl: 'smtps://u:p@smtp.example.com:465', reminderHours: 0.5, mailFrom: 'Outing <no-reply@book.example.com>',
    });
    expect(loadConfig({ REMINDER_HOURS: '0', MAIL_FROM: 'Lisbon Walks <book@lisbonwalks.example>' })).toMatchObject({
      reminderHours: 0, mailFrom: 'Lisbon Walks <book@lisbonwalks.example>',
    });
    expect(() => loadConfig({ SMTP_URL: 'smtp://user:s3cret@' })).toThrow(/^(?!.*s3cret).*SMTP_URL/);
  });

  it('chooses the database: flags beat the environment, a URL in the environment beats a path there', () => {
    const url = 'postgres://outing:secret@db.internal:5432/outing';
    expect(loadConfig({}).databaseUrl).toBeUndefined();
    expect(loadConfig({}).databasePoolSize).toBe(10);
    expect(loadConfig({ DATABASE_URL: url, DATABASE_PATH: '/tmp/x.db' }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: 'postgresql://h/db' }).databaseUrl).toBe('postgresql://h/db');
    expect(loadConfig({ DATABASE_URL: url }, { db: '/tmp/y.db' })).toMatchObject({ databaseUrl: undefined, databasePath: resolve('/tmp/y.db') });
    expect(loadConfig({}, { databaseUrl: url }).databaseUrl).toBe(url);
    expect(loadConfig({ DATABASE_URL: '  ' }).databaseUrl).toBeUndefined();
    expect(loadConfig({ DATABASE_POOL_SIZE: '3' }).databasePoolSize).toBe(3);
    expect(() => loadConfig({}, { db: '/tmp/y.db', databaseUrl: url })).toThrow(/--db .* or --database-url .*not both/);
    expect(() => loadConfig({ DATABASE_URL: 'mysql://h/db' })).toThrow(ConfigError);
    expect(() => loadConfig({ DATABASE_URL: 'not a url' })).toThrow(/DATABASE_URL must be a postgres:\/\/ URL/);
    expect(() => loadConfig({}, { databaseUrl: 'http://h/db' })).toThrow(/--database-url must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ DATABASE_POOL_SIZE: '0' })).toThrow(/DATABASE_POOL_SIZE/);
  });
});
