/**
 * The words of the guest information and "Add to calendar". English travels with the code that
 * shows them (the widget's confirmation chunk and the manage page), not in widget.js's catalog:
 * widget.js must stay small, and only a confirmed booking needs them. Every other language has them
 * as `guestInfo` in its language file (widget/i18n/pt.json…): the widget has fetched it already for
 * a guest who reads it, and the manage page bundles every language file.
 */
export interface GuestInfoTexts {
  meetingPoint: string;
  map: string;
  instructions: string;
  addToCalendar: string;
  google: string;
  ics: string;
  /** Said to screen readers after a link that opens a new tab. */
  newTab: string;
  /** `{0}` the guest's name, `{1}` their e-mail. */
  bookedFor: string;
}

export const en: GuestInfoTexts = {
  meetingPoint: 'Meeting point',
  map: 'Open the map',
  instructions: 'Before you come',
  addToCalendar: 'Add to calendar',
  google: 'Google Calendar',
  ics: 'Download .ics file',
  newTab: '(opens in a new tab)',
  bookedFor: 'Booked for {0} ({1}).',
};

/**
 * The texts in the page's language: its language file's, else English. Typed by the one key it reads, not
 * Messages: i18n/messages.ts names this file's interface, and importing it back would be a cycle.
 */
export const guestInfoTexts = (t: { guestInfo?: GuestInfoTexts }): GuestInfoTexts => t.guestInfo ?? en;
