/** The Settings sections, and the shapes that settings.ts and settings-actions.ts share (one file, so neither imports the other). */

export const SECTIONS = [
  ['organization', 'Organization'],
  ['api-keys', 'API keys'],
  ['webhooks', 'Webhooks'],
  ['calendars', 'Calendars'],
  ['team', 'Team'],
  ['promo-codes', 'Promo codes'],
  ['gift-vouchers', 'Gift vouchers'],
  ['activity', 'Activity'],
] as const;
export type Section = (typeof SECTIONS)[number][0];

/** A value Outing shows once (a key, a signing secret, a feed's address, a setup link), until the person is done with it. */
export interface Revealed {
  section: Section;
  title: string;
  label: string;
  value: string;
  /** What it is for, and that it will not be shown again. */
  text: string;
}

/** The question of the confirmation dialog and what answering yes does. */
export interface Asking {
  title: string;
  confirmLabel: string;
  text: string;
  run: () => Promise<void>;
  /** Where keyboard focus returns when the dialog closes without doing anything. */
  from: string;
  busy: boolean;
  error: string | null;
}
