/**
 * What every screen's model is built from: the calls, the address, the session, and the ways a
 * failure becomes words. Each screen area (bookings, experiences, settings, …) has its own model
 * in this folder, made by `create…Model(ctx)` and composed in model.ts.
 */
import type { Session } from '../../shared/index.js';
import { ApiError, type CsvFile, type Http } from '../api.js';
import type { Location, Router } from '../router.js';
import type { ReadonlySignal } from './signals.js';

export interface AreaContext {
  http: Http;
  router: Router;
  session: ReadonlySignal<Session | null>;
  /** True, and the person sent to sign in again, when `e` says the session has ended (a 401). */
  ended(e: unknown): boolean;
  /** Moves keyboard focus to the element with this id after the next render. */
  focus(id: string): void;
  /** Reads the session again: after a change to the organization's name or to one's own role. */
  refreshSession(): Promise<void>;
}

/** A screen area's model as model.ts drives it. */
export interface Area {
  /** The address now shows one of this area's screens: load what it needs (again, if it changed). */
  enter(location: Location): void;
  /** The session ended: forget everything, so the next person sees nothing of it. */
  reset(): void;
}

export interface FormState {
  busy: boolean;
  /** For the whole form, shown in an alert. */
  error: string | null;
  /** By field name (the `details[].path` of the contract's errors). */
  fields: Record<string, string>;
}

export const idleForm: FormState = { busy: false, error: null, fields: {} };

/** What a person can do about a refusal, in a sentence; the server's message otherwise. */
export function sentenceFor(e: unknown): string {
  if (!(e instanceof ApiError)) return 'Something went wrong in the dashboard. Reload the page and try again.';
  switch (e.code) {
    case 'NETWORK':
      return 'Outing could not be reached. Check the connection and try again.';
    case 'RATE_LIMITED':
      return 'Too many attempts. Wait a few minutes and try again.';
    case 'FORBIDDEN':
      return 'Your role does not allow this. Ask an owner of the organization.';
    case 'INTERNAL_ERROR':
    case 'BAD_RESPONSE':
      return 'Outing could not answer just now. Try again in a moment.';
    default:
      return e.message.endsWith('.') ? e.message : `${e.message}.`;
  }
}

/**
 * The contract's `details[].path` as field names. `depth` 1 keeps `schedule` of
 * `schedule.weekly.0.time`; a larger depth keeps more (`schedule.weekly`), for forms whose fields
 * are named that way.
 */
export function fieldsOf(e: unknown, depth = 1): Record<string, string> {
  const fields: Record<string, string> = {};
  if (!(e instanceof ApiError)) return fields;
  for (const d of e.details) {
    const name = d.path.split('.').slice(0, depth).join('.');
    if (name && !fields[name]) fields[name] = d.message.endsWith('.') ? d.message : `${d.message}.`;
  }
  return fields;
}

/**
 * A failed form submission as a FormState: field errors beside their fields when the refusal names
 * them, a sentence for the whole form otherwise.
 */
export function formFailure(e: unknown, depth = 1): FormState {
  const fields = e instanceof ApiError && e.code === 'VALIDATION_ERROR' ? fieldsOf(e, depth) : {};
  return { busy: false, error: Object.keys(fields).length ? null : sentenceFor(e), fields };
}

/**
 * Hands a fetched file to the browser as a download. A plain link cannot send the CSRF header
 * that /v1 wants with the cookie, so the file is fetched and saved from a Blob URL (same origin:
 * the CSP allows it).
 */
export function saveFile(file: CsvFile): void {
  const url = URL.createObjectURL(file.blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = file.filename;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has its own copy once it has started; a minute is far more than it needs.
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
