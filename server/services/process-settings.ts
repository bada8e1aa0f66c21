// A process's own configuration, as the use cases a unit of work runs read it (unit-of-work.ts).
// Apart from the unit of work so that a use case can read it without importing the transactions' machinery.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What this process is configured with that a use case must know while it runs: not settings of the
 * database, which several processes may share, but each process's own (its environment).
 */
export interface ProcessSettings {
  /** Guest e-mails can go out (SMTP_URL is set); without it a message is queued SKIPPED at once. */
  guestMail: boolean;
}

/** Outside any unit of work (a test calling a service directly): messages queue for sending. */
const UNCONFIGURED: ProcessSettings = { guestMail: true };

const running = new AsyncLocalStorage<ProcessSettings>();

/** The settings of the process whose unit of work this call runs in (awaited from inside it, however deep). */
export function processSettings(): ProcessSettings {
  return running.getStore() ?? UNCONFIGURED;
}

/** Runs `work` with `settings` as the process's: what the unit of work does for the work it runs. */
export function withProcessSettings<T>(settings: ProcessSettings, work: () => Promise<T>): Promise<T> {
  return running.run(settings, work);
}
