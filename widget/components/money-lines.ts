/**
 * The widget's money as it shows it: a list of named lines (`2 × Adult  €100.00`) and a total's
 * line (`Total: €100.00`). DetailsStep uses them, and widget.js lends them (the Widget's `lines`
 * and `total`) to the chunks that show money (the booking form's, the code box's, the
 * confirmation's), so that none carries a copy.
 */
import { h, type ComponentChildren } from 'preact';

/** A `ul.lines`: each line its name and its amount (text, or a control such as "Remove"); false lines are left out. */
export const moneyLines = (lines: ([ComponentChildren, ComponentChildren] | false | undefined | null | '')[]) =>
  h('ul', { class: 'lines' }, lines.map((l) => l && h('li', null, h('span', null, l[0]), ' ', h('span', null, l[1]))));

/** A total's line, `label: amount`; `live` says it to screen readers as it changes (a running total). */
export const totalLine = (label: string, amount: ComponentChildren, live?: boolean) =>
  h('p', live ? { class: 'total', 'aria-live': 'polite', 'aria-atomic': 'true' } : { class: 'total' }, `${label}: `, h('strong', null, amount));
