import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { Store } from '../store/index.js';
import { SendFailure, type MailTransport } from '../mail/message.js';
import { retryDelayMs } from '../webhooks/retry.js';
import { queueDueReminders } from '../services/messages.js';
import { NO_MAIL_SERVER, setGuestMail } from '../services/message-queue.js';
import type { Job } from './job.js';

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
}

export interface GuestMailJob extends Job<void> {
  wake(): void;
  inFlight(): number;
}

/**
 * The guest e-mail worker: the messages of the outbox (written with the booking changes that cause
 * them) are leased one attempt at a time, composed from the booking as it stands, and sent. A
 * temporary failure (no connection, a 4xx reply) tries again on WEBHOOK_RETRY_SCHEDULE; a permanent
 * one (a 5xx reply) ends FAILED. A crash mid-send leaves the lease to run out, so the message is sent
 * later with the same Message-ID; a receiver may then see it twice, never zero times.
 */
export function guestMailJob(options: GuestMailOptions): GuestMailJob {
  const { store, config, logger, transport } = options;
  const now = options.now ?? Date.now;
  const maxInFlight = options.maxInFlight ?? 4;
  const pollMs = options.pollMs ?? 1_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const random = options.random ?? Math.random;
  const reminderEveryMs = options.reminderEveryMs ?? Math.max(1_000, Math.min(60_000, (config.reminderHours * 3_600_000) / 20));
  const running = new Map<string, Promise<void>>();
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  let started = false;
  let nextReminderLook = 0;

  function schedule(delayMs: number): void {
    if (stopped) return;
    clearTimeout(timer);
    timer = setTimeout(tick, Math.max(0, Math.min(delayMs, pollMs)));
    timer.unref();
  }

  async function lookForReminders(at: number): Promise<void> {
    if (config.reminderHours <= 0 || at < nextReminderLook) return;
    nextReminderLook = at + reminderEveryMs;
    const queued = await queueDueReminders(store, config.reminderHours, at);
    if (queued > 0) logger.info('reminders queued', { count: queued });
  }

  async function tick(): Promise<void> {
    if (stopped || !started) return;
    clearTimeout(timer);
    try {
      const at = now();
      await lookForReminders(at);
      if (transport === null) {
        // Nothing can be sent: messages are queued SKIPPED (the setting written at start).
        schedule(pollMs);
        return;
      }
      const free = maxInFlight - running.size;
      let waiting = false;
      if (free > 0) {
        const candidates = await store.listDueMessages(at, free);
        for (const id of candidates) {
          if (running.has(id)) continue;
          // Leased from now, not from before the list was read; still due by the tick's clock.
          const leasedAt = Math.max(at, now());
          if (!await store.leaseMessage(id, leasedAt, leasedAt + leaseMs)) continue;
          begin(id);
        }
        waiting = candidates.length >= free;
      } else {
        waiting = true;
      }
      if (waiting) schedule(pollMs);
      else {
        const next = await store.nextMessageDueAt();
        schedule(next === undefined ? pollMs : Math.max(next - now(), 10));
      }
    } catch (err) {
      logger.error('guest mail worker failed to read messages', { error: err instanceof Error ? err.message : String(err) });
      schedule(pollMs);
    }
  }

  function begin(id: string): void {
    const done = attempt(id)
      .catch(async (err: unknown) => {
        logger.error('guest e-mail attempt failed unexpectedly', { messageId: id, error: err instanceof Error ? err.message : String(err) });
        try {
          await store.releaseMessage(id);
        } catch {
          // the database is closing; the lease simply runs out
        }
      })
      .finally(() => {
        running.delete(id);
        if (!stopped) setImmediate(tick);
      });
    running.set(id, done);
  }

  async function attempt(id: string): Promise<void> {
    const message = await store.getMessage(id);
    if (!message || message.status !== 'PENDING') return;
    const at = now();
    if (transport === null) return;
    const { composeQueuedMessage } = await import('../services/message-compose.js');
    let mail;
    try {
      mail = await store.transaction(async () => await composeQueuedMessage(store, message, { publicUrl: config.publicUrl }, at));
    } catch (err) {
      // A message that cannot be composed (an address that is not one) would fail again: it ends here.
      await store.recordMessageAttempt(id, { status: 'FAILED', lastError: `Not sent: ${err instanceof Error ? err.message : String(err)}`, nextAttemptAt: null, sentAt: null });
      return;
    }
    if (!mail) {
      await store.recordMessageAttempt(id, { status: 'FAILED', lastError: 'Not sent: the booking no longer exists', nextAttemptAt: null, sentAt: null }, false);
      return;
    }
    const startedAt = now();
    try {
      await transport.send(mail);
      await store.recordMessageAttempt(id, { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: now() });
      logger.info('guest e-mail sent', { messageId: id, kind: message.kind, attempt: message.attempts + 1, durationMs: now() - startedAt });
    } catch (err) {
      const failure = err instanceof SendFailure ? err : new SendFailure('temporary', err instanceof Error ? err.message : String(err));
      const attempts = message.attempts + 1;
      const delay = failure.kind === 'temporary' ? retryDelayMs(attempts, config.webhookRetrySchedule, undefined, random()) : undefined;
      const ended = now();
      await store.recordMessageAttempt(id, {
        status: delay === undefined ? 'FAILED' : 'PENDING',
        lastError: failure.message,
        nextAttemptAt: delay === undefined ? null : ended + delay,
        sentAt: null,
      });
      logger.warn('guest e-mail not sent', {
        messageId: id,
        kind: message.kind,
        attempt: attempts,
        outcome: delay === undefined ? 'FAILED' : 'retry',
        // Mail servers quote the recipient in their refusals: the log keeps the reason, not the guest.
        error: failure.message.replace(/[^\s<>@"']+@[^\s<>@"']+/g, '[address]'),
        durationMs: ended - startedAt,
      });
    }
  }

  let unsubscribe = () => {};

  return {
    name: 'guest e-mails',
    async start() {
      if (started || stopped) return;
      started = true;
      // Tells the booking use cases how to queue: without a mail server, straight to SKIPPED (and
      // what an earlier run with SMTP_URL left queued is recorded the same way).
      await setGuestMail(store, transport !== null);
      if (transport === null) {
        const skipped = await store.skipAllPendingMessages(NO_MAIL_SERVER);
        if (skipped > 0) logger.info('guest e-mails left queued are not sent: no mail server is configured', { count: skipped });
      }
      // On SQLite the server holds the file's lock (one serving process), so a lease found now is a
      // killed process's send: due again at once rather than when its lease would run out. On
      // PostgreSQL other processes may be sending right now: their leases are left to run out.
      if (store.engine === 'sqlite') {
        const taken = await store.releaseAllMessageLeases();
        if (taken > 0) logger.info('guest e-mails cut short by a stop are due again', { count: taken });
      }
      if (transport !== null) unsubscribe = await store.onMessagesDue(async () => await tick());
      schedule(0);
    },
    wake: async () => await tick(),
    async runOnce() {
      if (stopped) return;
      const wasStarted = started;
      started = true;
      await tick();
      started = wasStarted;
      if (!wasStarted) clearTimeout(timer);
      await Promise.allSettled([...running.values()]);
    },
    inFlight: () => running.size,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearTimeout(timer);
      unsubscribe();
      const all = () => Promise.allSettled([...running.values()]);
      let grace: NodeJS.Timeout | undefined;
      await Promise.race([all(), new Promise((resolve) => (grace = setTimeout(resolve, options.stopGraceMs ?? 3_000)))]);
      clearTimeout(grace);
      // What is still in flight keeps its lease: it is sent again after the lease, never lost.
    },
  };
}
