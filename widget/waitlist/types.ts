/**
 * The shapes of the waitlist's chunk (widget/waitlist/chunk.ts), apart from its code: the widget's
 * state and its catalogs name them without importing the chunk.
 */
import type { WaitlistEntry } from '../../shared/index.js';

/** What the waitlist's step holds, in the model's form signal (widget/state/state.ts): changing it renders. */
export interface WaitlistState {
  /** The entry made: the confirmation shows it. */
  entry?: WaitlistEntry;
  /** What the step says of a refusal (`already`, `hasPlaces`, `closed`), and of which time (its start). */
  said?: WaitlistRefusal;
  at?: string;
}

export type WaitlistRefusal = 'already' | 'hasPlaces' | 'closed';

export interface WaitlistTexts {
  /** The step's heading while the guest joins, and once joined. */
  title: string;
  joined: string;
  /** What joining means, above the form. */
  intro: string;
  join: string;
  joining: string;
  /** The confirmation, `{0}` the position (1 is next). */
  position: string;
  /** What happens next, `{0}` the guest's e-mail. */
  next: string;
  /** Why a join was refused: on the list already with that e-mail; the time has places now (book it instead); the time takes no waitlist any more. */
  already: string;
  hasPlaces: string;
  closed: string;
  /** From `hasPlaces` back to booking that time. */
  bookNow: string;
}
