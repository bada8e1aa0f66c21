// Sending guest e-mails as use cases: the outbox the mail job leases from, what a queued message
// becomes at its attempt (composed from the booking as it stands), and what a send's outcome means.
// The job only hands the composed message to the transport.
import type { Store } from '../store/index.js';
import type { MessageRow, MessageStatus } from '../store/messages.js';
import type { MailMessage } from '../mail/message.js';
import { SendFailure } from '../mail/message.js';
import { retryDelayMs } from '../webhooks/retry.js';
import { NO_MAIL_SERVER } from './message-queue.js';

/** The messages' outbox. */
export function messageOutbox(store: Store) {
  return {
    async listDue(now: number, limit: number): Promise<{ id: string }[]> {
      return (await store.messages.listDueMessages(now, limit)).map((id) => ({ id }));
    },
    lease: (id: string, now: number, until: number) => store.messages.leaseMessage(id, now, until),
    release: (id: string) => store.messages.releaseMessage(id),
    nextDueAt: () => store.messages.nextMessageDueAt(),
    onDue: async (listener: () => void) => await store.messages.onMessagesDue(listener),
  };
}

/** What a process starting its mail job found and did. */
export interface GuestMailStart {
  /** Messages left queued that are recorded SKIPPED: this process has no mail server. */
  skipped: number;
  /** Messages whose send a stop cut short, due again at once. */
  released: number;
}

/**
 * A process's guest mail at start. Whether it can send is its own configuration (SMTP_URL), which
 * its unit of work carries so that the booking use cases queue accordingly; without a mail server
 * what an earlier run left queued is recorded SKIPPED here. On SQLite the process holds the file's lock (it is the one serving process), so
 * a lease found now is a killed process's send: due again at once rather than when its lease would
 * run out. On PostgreSQL other processes may be sending right now: their leases are left to run out.
 */
export async function startGuestMail(store: Store, canSend: boolean): Promise<GuestMailStart> {
  const skipped = canSend ? 0 : await store.messages.skipAllPendingMessages(NO_MAIL_SERVER);
  const released = store.engine === 'sqlite' ? await store.messages.releaseAllMessageLeases() : 0;
  return { skipped, released };
}

/**
 * The e-mail a leased message is to send, composed now from the booking as it stands, or undefined
 * when there is nothing to send: the message is no longer pending, its booking is gone, or it cannot
 * be composed (an address that is not one would fail again: it ends FAILED here).
 */
export async function prepareMessage(
  store: Store,
  id: string,
  settings: { publicUrl: string },
  now: number,
): Promise<{ message: MessageRow; mail: MailMessage } | undefined> {
  const message = await store.messages.getMessage(id);
  if (!message || message.status !== 'PENDING') return undefined;
  const { composeQueuedMessage } = await import('./message-compose.js');
  let mail;
  try {
    mail = await store.transaction(async () => await composeQueuedMessage(store, message, settings, now));
  } catch (err) {
    await store.messages.recordMessageAttempt(id, { status: 'FAILED', lastError: `Not sent: ${err instanceof Error ? err.message : String(err)}`, nextAttemptAt: null, sentAt: null });
    return undefined;
  }
  if (!mail) {
    await store.messages.recordMessageAttempt(id, { status: 'FAILED', lastError: 'Not sent: the booking no longer exists', nextAttemptAt: null, sentAt: null }, false);
    return undefined;
  }
  return { message, mail };
}

export interface SendPolicy {
  /** WEBHOOK_RETRY_SCHEDULE, in seconds: guest e-mails retry on the same schedule. */
  retrySchedule: readonly number[];
  /** A number in [0, 1) for the retry's jitter. */
  random: number;
}

/** How a send ended, as recorded. */
export interface SendOutcome {
  status: MessageStatus;
  /** Why it was not sent, when it was not. */
  error: string | null;
}

/**
 * Records what a send came to: SENT, or (given the error the transport threw) tried again on the
 * retry schedule after a temporary failure (no connection, a 4xx reply), FAILED after a permanent one
 * (a 5xx reply) or once the schedule is used up.
 */
export async function recordSendOutcome(
  store: Store,
  message: MessageRow,
  error: unknown,
  policy: SendPolicy,
  now: number,
): Promise<SendOutcome> {
  if (error === undefined) {
    await store.messages.recordMessageAttempt(message.id, { status: 'SENT', lastError: null, nextAttemptAt: null, sentAt: now });
    return { status: 'SENT', error: null };
  }
  const failure = error instanceof SendFailure ? error : new SendFailure('temporary', error instanceof Error ? error.message : String(error));
  const delay = failure.kind === 'temporary' ? retryDelayMs(message.attempts + 1, policy.retrySchedule, undefined, policy.random) : undefined;
  const status = delay === undefined ? 'FAILED' : 'PENDING';
  await store.messages.recordMessageAttempt(message.id, {
    status,
    lastError: failure.message,
    nextAttemptAt: delay === undefined ? null : now + delay,
    sentAt: null,
  });
  return { status, error: failure.message };
}
