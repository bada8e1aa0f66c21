import type { Formats } from '../i18n/format.js';
import type { Messages } from '../i18n/messages.js';
import type { BookingModel } from '../state/booking.js';

/** What every component reads: one per mounted widget, passed down as the `w` prop. */
export interface Widget {
  model: BookingModel;
  t: Messages;
  fmt: Formats;
  /** The Intl tag in use, set as `lang` on the widget (WCAG 3.1.2 language of parts). */
  locale: string;
}

export interface Props {
  w: Widget;
}
