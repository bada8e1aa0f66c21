/**
 * The words of the waitlist's step (widget/waitlist/chunk.ts). English travels with the chunk, not
 * in widget.js's catalog (which has only the time's label, "Full – join the waitlist"); every other
 * language has them as `waitlist` in its language file (widget/i18n/pt.json…), which the widget has
 * fetched already for a guest who reads it. `{0}` is a position or an e-mail address.
 */
import type { Messages } from '../i18n/messages.js';
import type { WaitlistTexts } from './types.js';

export type { WaitlistTexts } from './types.js';

export const en: WaitlistTexts = {
  title: 'Join the waitlist',
  joined: 'You are on the waitlist',
  intro: 'This time is full. Join the waitlist: if places come free, we will e-mail you an offer that holds them for you for a while.',
  join: 'Join the waitlist',
  joining: 'Joining…',
  position: 'You are number {0} on the waitlist',
  next: 'If places come free, we will e-mail {0} an offer to book them.',
  already: 'You are already on the waitlist for this time with this e-mail address.',
  hasPlaces: 'Places have just come free at this time: you can book it now.',
  closed: 'This time no longer takes a waitlist. Please choose another time.',
  bookNow: 'Book this time',
};

export const waitlistTexts = (t: Messages): WaitlistTexts => t.waitlist ?? en;
