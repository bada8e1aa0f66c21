/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import type { JSX } from 'preact';
import { isBookable } from '../state/availability.js';
import { addDays, addMonths, dayOfMonth, lastDayOf, monthOf, monthWeeks, weekdayIndex } from '../state/dates.js';
import type { Props } from './widget.js';

const pad = (n: number) => String(n).padStart(2, '0');

/**
 * A month as an ARIA grid (the APG date-picker pattern): one day is in the tab order, arrow keys
 * move by day and week, Home/End to the week's ends, Page Up/Down by month. Days without a free
 * place stay focusable but aria-disabled, so arrowing through the month never skips silently.
 */
export function CalendarStep({ w: { model, t, fmt } }: Props) {
  const calendar = model.calendar.value;
  if (!calendar) return null;
  const month = model.month.value;
  const loaded = calendar.months.includes(month);
  const weeks = monthWeeks(month);
  const days = weeks.flat().filter((d): d is string => !!d);
  // A day whose times are all full stays choosable for an experience with a waitlist.
  const bookable = (d: string) => loaded && isBookable(calendar, d, model.experience.value?.waitlist);
  const selected = model.date.value;
  const active = [model.cursor.value, selected].find((d) => d && monthOf(d) === month) ?? days.find(bookable) ?? days[0]!;

  function onKeyDown(e: JSX.TargetedKeyboardEvent<HTMLElement>): void {
    const byMonth = (n: number) => {
      const m = addMonths(month, n);
      return `${m}-${pad(Math.min(dayOfMonth(active), dayOfMonth(lastDayOf(m))))}`;
    };
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(active, -1),
      ArrowRight: () => addDays(active, 1),
      ArrowUp: () => addDays(active, -7),
      ArrowDown: () => addDays(active, 7),
      Home: () => addDays(active, -weekdayIndex(active)),
      End: () => addDays(active, 6 - weekdayIndex(active)),
      PageUp: () => byMonth(-1),
      PageDown: () => byMonth(1),
    };
    const move = moves[e.key];
    if (!move) return;
    e.preventDefault();
    model.moveCursor(move());
  }

  const monthButton = (n: number, label: string, enabled: boolean, arrow: string) => (
    <button
      type="button"
      class="icon"
      aria-label={label}
      aria-disabled={!enabled}
      onClick={() => enabled && model.showMonth(addMonths(month, n))}
    >
      <span aria-hidden="true">{arrow}</span>
    </button>
  );

  return (
    <>
      <div class="month-bar">
        {monthButton(-1, t.previousMonth, model.canShowPreviousMonth.value, '‹')}
        <h3 id="month" aria-live="polite">
          {fmt.month(month)}
        </h3>
        {monthButton(1, t.nextMonth, model.canShowNextMonth.value, '›')}
      </div>
      <table class="grid" role="grid" aria-labelledby="month" onKeyDown={onKeyDown}>
        <thead>
          <tr>
            {fmt.weekdays.map(([short, long]) => (
              <th key={long} scope="col" abbr={long}>
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {weeks.map((week) => (
            <tr key={week.find(Boolean)}>
              {week.map((d, i) =>
                d ? (
                  <td key={d} aria-selected={d === selected}>
                    <button
                      type="button"
                      id={`day-${d}`}
                      class={bookable(d) ? 'day free' : 'day'}
                      tabIndex={d === active ? 0 : -1}
                      aria-label={fmt.longDate(d)}
                      aria-disabled={!bookable(d)}
                      aria-current={d === calendar.today ? 'date' : undefined}
                      onClick={() => (bookable(d) ? model.chooseDate(d) : model.moveCursor(d))}
                    >
                      {dayOfMonth(d)}
                    </button>
                  </td>
                ) : (
                  <td key={i} />
                ),
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {loaded && !days.some(bookable) && <p class="hint">{t.noDatesThisMonth}</p>}
    </>
  );
}
