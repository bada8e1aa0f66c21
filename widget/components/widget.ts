/*
 * The .tsx files open with a pragma for Preact's classic JSX (`h`, imported from preact) rather
 * than the automatic runtime the build configures: jsx() and a `children` prop on every element
 * cost ~150 bytes gzipped of the size budget (size-budget.test.ts).
 */
import type { Formats } from '../i18n/format.js';
import type { Messages } from '../i18n/messages.js';
import type { BookingModel } from '../state/booking.js';
import type { moneyLines, totalLine } from './money-lines.js';

/** What every component reads: one per mounted widget, passed down as the `w` prop. */
export interface Widget {
  model: BookingModel;
  t: Messages;
  fmt: Formats;
  /** The Intl tag in use, set as `lang` on the widget (WCAG 3.1.2 language of parts). */
  locale: string;
  /** The server widget.js came from: its language files and confirmation chunk are fetched there. */
  origin: string;
  /**
   * Adds a chunk's styles to the shadow root an element is in, once (styles/sheet.ts): lent by
   * widget.js, the chunks' ref callbacks call it.
   */
  css(el: Element | null, text: string): void;
  /** The money's lines and a total's line (components/money-lines.ts), lent by widget.js to the chunks. */
  lines: typeof moneyLines;
  total: typeof totalLine;
}

export interface Props {
  w: Widget;
}
