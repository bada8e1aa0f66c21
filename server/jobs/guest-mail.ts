import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import type { MailTransport } from '../mail/message.js';
import { queueDueReminders } from '../services/messages.js';
import { messageOutbox, prepareMessage, recordSendOutcome, startGuestMail } from '../services/guest-mail.js';
import { UnitOfWork } from '../services/unit-of-work.js';
import { leasedOutboxJob, type Outbox, type OutboxJob } from './outbox.js';

export interface GuestMailOptions {
  store: Store;
  config: Pick<Config, 'publicUrl' | 'webhookRetrySchedule' | 'reminderHours'>;
  logger: Logger;
  /** The SMTP transport; null when SMTP_URL is unset: every message is recorded SKIPPED. */
  transport: MailTransport | null;
  now?: () => number;
  /** Messages in flight at once (default 4): one SMTP server, a few connections. */
  maxInFlight?: number;
  /** Longest sleep between looks at the database (default 1000 ms); queued messages wake it at once. */
  pollMs?: number;
  /** How often reminders are looked for (default 60 s, shorter when REMINDER_HOURS is tiny). */
  reminderEveryMs?: number;
  /** How long `stop()` lets sends in flight finish (default 3000 ms). */
  stopGraceMs?: number;
  /** A send's lease: a process that dies mid-send leaves the message due again after this (default 60 s). */
  leaseMs?: number;
  random?: () => number;
  /** The process's unit of work, in which reminders are queued; default: one whose guest mail is on with a transport. */
  work?: UnitOfWork;
}

export type GuestMailJob = OutboxJob;

/** Without a mail server nothing is leased: messages are queued SKIPPED. */
const NOTHING_TO_SEND: Outbox<{ id: string }> = {
  listDue: async () => [],
  lease: async () => false,
  release: async () => {},
  nextDueAt: async () => undefined,
};

/**
 * The guest e-mail worker, on the leased outbox (jobs/outbox.ts): the messages written with the
 * booking changes that cause them are leased one attempt at a time, composed from the booking as it
 * stands, and handed to the transport; services/guest-mail.ts says what each outcome means. Each pass
 * first queues the reminders now due. A crash mid-send leaves the lease to run out, so the message
 * is sent later with the same Message-ID; a receiver may then see it twice, never zero times.
 */
export function guestMailJob(options: GuestMailOptions): GuestMailJob {
  const { store, config, logger, transport } = options;
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const work = options.work ?? new UnitOfWork(store, now, { guestMail: transport !== null });
  const reminderEveryMs = options.reminderEveryMs ?? Math.max(1_000, Math.min(60_000, (config.reminderHours * 3_600_000) / 20));
  let nextReminderLook = 0;

  async function lookForReminders(at: number): Promise<void> {
    if (config.reminderHours <= 0 || at < nextReminderLook) return;
    nextReminderLook = at + reminderEveryMs;
    const { result: queued } = await work.run({}, () => queueDueReminders(store, config.reminderHours, at));
    if (queued > 0) logger.info('reminders queued', { count: queued });
  }

  async function send(item: { id: string }): Promise<void> {
    if (transport === null) return;
    const prepared = await prepareMessage(store, item.id, { publicUrl: config.publicUrl }, now());
    if (!prepared) return;
    const { message, mail } = prepared;
    const startedAt = now();
    let error: unknown;
    try {
      await transport.send(mail);
    } catch (err) {
      error = err ?? new Error('The transport failed');
    }
    const ended = now();
    const outcome = await recordSendOutcome(store, message, error, { retrySchedule: config.webhookRetrySchedule, random: random() }, ended);
    if (outcome.status === 'SENT') {
      logger.info('guest e-mail sent', { messageId: message.id, kind: message.kind, attempt: message.attempts + 1, durationMs: ended - startedAt });
      return;
    }
    logger.warn('guest e-mail not sent', {
      messageId: message.id,
      kind: message.kind,
      attempt: message.attempts + 1,
      outcome: outcome.status === 'FAILED' ? 'FAILED' : 'retry',
      // Mail servers quote the recipient in their refusals: the log keeps the reason, not the guest.
      error: (outcome.error ?? '').replace(/[^\s<>@"']+@[^\s<>@"']+/g, '[address]'),
      durationMs: ended - startedAt,
    });
  }

  return leasedOutboxJob({
    name: 'guest e-mails',
    logger,
    outbox: transport === null ? NOTHING_TO_SEND : messageOutbox(store),
    send,
    leaseMs: options.leaseMs ?? 60_000,
    maxInFlight: options.maxInFlight ?? 4,
    pollMs: options.pollMs,
    stopGraceMs: options.stopGraceMs,
    now,
    beforePass: lookForReminders,
    async beforeStart() {
      const started = await startGuestMail(store, transport !== null);
      if (started.skipped > 0) logger.info('guest e-mails left queued are not sent: no mail server is configured', { count: started.skipped });
      if (started.released > 0) logger.info('guest e-mails cut short by a stop are due again', { count: started.released });
    },
  });
}
