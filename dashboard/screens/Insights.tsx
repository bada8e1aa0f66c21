import type { JSX } from 'preact';
import type { DailyReportDay, ExperienceOccupancy } from '../../shared/index.js';
import { ColumnChart, MeterRows, type Meter } from '../components/chart-bars.js';
import { Field, formOf } from '../components/Field.js';
import { money, plural } from '../format.js';
import type { Model } from '../state/model.js';
import { cents, type InsightsFigures } from '../state/insights.js';
import '../styles/insights.css';

// Calendar dates in no zone (the report has cut the days already), so read in UTC.
const formats = new Map<string, Intl.DateTimeFormat>();
function dateAs(date: string, options: Intl.DateTimeFormatOptions): string {
  const key = JSON.stringify(options);
  let f = formats.get(key);
  if (!f) formats.set(key, (f = new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' })));
  return f.format(new Date(`${date}T00:00:00Z`));
}
/** `Nov 6` */
const shortDay = (date: string) => dateAs(date, { month: 'short', day: 'numeric' });
/** `Fri, Nov 6` */
const tableDay = (date: string) => dateAs(date, { weekday: 'short', month: 'short', day: 'numeric' });
/** `Nov 23, 2026` */
const fullDay = (date: string) => dateAs(date, { dateStyle: 'medium' });

let percentFormat: Intl.NumberFormat | undefined;
const percent = (share: number) => (percentFormat ??= new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 })).format(share);

/** Money without its cents, for a chart's scale. */
function roundMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 0 }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

/** The largest day, for a chart's description: `at most 9 on Nov 6`. */
function busiest(days: DailyReportDay[], value: (d: DailyReportDay) => number): DailyReportDay | undefined {
  return days.reduce<DailyReportDay | undefined>((best, d) => (value(d) > (best ? value(best) : 0) ? d : best), undefined);
}

function DailyCharts({ f, totals }: { f: InsightsFigures; totals: NonNullable<Model['insights']['totals']['value']> }): JSX.Element {
  const { days, currency } = f.daily;
  const span = `from ${fullDay(days[0]!.date)} to ${fullDay(days.at(-1)!.date)}`;
  const mostBooked = busiest(days, (d) => d.bookings);
  const mostRevenue = busiest(days, (d) => cents(d.revenue));
  return (
    <>
      <section class="insight" aria-labelledby="bookings-heading">
        <h2 id="bookings-heading">Bookings per day</h2>
        <ColumnChart
          id="bookings-chart"
          title="Bookings per day"
          summary={`Bookings made each day ${span}: ${totals.bookings} in all${mostBooked ? `, the most (${mostBooked.bookings}) on ${fullDay(mostBooked.date)}` : ''}. The table below has every day.`}
          columns={days.map((d) => ({ label: shortDay(d.date), value: d.bookings, text: plural(d.bookings, 'booking', 'bookings') }))}
          scale={(n) => (Number.isInteger(n) ? String(n) : '')}
        />
      </section>
      <section class="insight" aria-labelledby="revenue-heading">
        <h2 id="revenue-heading">Revenue per day</h2>
        <ColumnChart
          id="revenue-chart"
          title="Revenue per day"
          summary={`Revenue of the bookings made each day ${span}: ${money(totals.revenue, currency)} in all${mostRevenue ? `, the most (${money(mostRevenue.revenue, currency)}) on ${fullDay(mostRevenue.date)}` : ''}. The table below has every day.`}
          columns={days.map((d) => ({ label: shortDay(d.date), value: cents(d.revenue) / 100, text: money(d.revenue, currency) }))}
          scale={(n) => roundMoney(n, currency)}
        />
      </section>
      <details class="figures">
        <summary>Bookings and revenue per day as a table</summary>
        {/* Wider than a phone: it scrolls sideways, so it takes focus to be scrolled by keyboard too. */}
        <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="daily-caption">
          <table>
            <caption id="daily-caption" class="visually-hidden">
              Bookings, guests, revenue and cancellations per day {span}
            </caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <FigureHeads />
              </tr>
            </thead>
            <tbody>
              {days.map((d) => (
                <tr key={d.date}>
                  <th scope="row">
                    <time dateTime={d.date}>{tableDay(d.date)}</time>
                  </th>
                  <FigureCells f={d} currency={currency} />
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <FigureCells f={totals} currency={currency} />
              </tr>
            </tfoot>
          </table>
        </div>
      </details>
    </>
  );
}

/** `39%`, or why there is no share: an experience without tours in the period. */
function shareText(o: ExperienceOccupancy | undefined): string {
  return !o || o.slots === 0 ? 'No tours' : percent(o.occupancy);
}

function placesText(o: ExperienceOccupancy | undefined): string {
  return !o || o.slots === 0 ? 'No tours' : `${percent(o.occupancy)}: ${o.booked} of ${plural(o.capacity, 'place', 'places')}, ${plural(o.slots, 'tour', 'tours')}`;
}

function Occupancy({ f, custom }: { f: InsightsFigures; custom: boolean }): JSX.Element {
  const days = f.daily.days;
  const pastName = custom ? 'These days' : 'Last 30 days';
  const aheadName = custom ? 'The 30 days after' : 'Next 30 days';
  const rows = f.past.experiences.map((past) => ({
    past,
    ahead: f.ahead.experiences.find((a) => a.experience.id === past.experience.id),
  }));
  return (
    <section class="insight" aria-labelledby="occupancy-heading">
      <h2 id="occupancy-heading">Occupancy per experience</h2>
      <p class="quiet">
        Places booked out of the places on sale, over {custom ? 'these days' : 'the last 30 days'} ({shortDay(days[0]!.date)} to{' '}
        {shortDay(days.at(-1)!.date)}) and the {custom ? '30 after them' : 'next 30'} ({shortDay(f.aheadFrom)} to {shortDay(f.aheadTo)}).
      </p>
      {rows.length ? (
        <>
          <MeterRows
            rows={rows.map(({ past, ahead }) => ({
              title: past.experience.title,
              meters: [
                { name: pastName, share: past.occupancy, text: shareText(past), tone: 'past' },
                { name: aheadName, share: ahead?.occupancy ?? 0, text: shareText(ahead), tone: 'ahead' },
              ] satisfies Meter[],
            }))}
          />
          <details class="figures">
            <summary>Occupancy as a table</summary>
            <div class="table-wrap">
              <table>
                <caption class="visually-hidden">Occupancy per experience, {custom ? 'these days and the 30 after them' : 'the last and the next 30 days'}</caption>
                <thead>
                  <tr>
                    <th scope="col">Experience</th>
                    <th scope="col">{pastName}</th>
                    <th scope="col">{aheadName}</th>
                  </tr>
                </thead>
                <tbody>
                  {rows.map(({ past, ahead }) => (
                    <tr key={past.experience.id}>
                      <th scope="row">{past.experience.title}</th>
                      <td>{placesText(past)}</td>
                      <td>{placesText(ahead)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          </details>
        </>
      ) : (
        <p class="empty">
          No active experiences, so no places on sale. Create an experience with a schedule, or make one active again, under{' '}
          <a href="/dashboard/experiences">Experiences</a>.
        </p>
      )}
    </section>
  );
}

/** Revenue per experience: bars drawn beside their amounts (a list a screen reader reads as text), and a table of every figure. */
function PerExperience({ f }: { f: InsightsFigures }): JSX.Element {
  const { experiences, currency } = f.experiences;
  const top = Math.max(0, ...experiences.map((e) => cents(e.revenue)));
  return (
    <section class="insight" aria-labelledby="per-experience-heading">
      <h2 id="per-experience-heading">Revenue per experience</h2>
      {experiences.length ? (
        <>
          <MeterRows
            rows={experiences.map((e) => ({
              title: e.experience.title,
              meters: [{ name: 'Revenue', share: top ? cents(e.revenue) / top : 0, text: money(e.revenue, currency), tone: 'past' }] satisfies Meter[],
            }))}
          />
          {/* Wider than a phone: it scrolls sideways, so it takes focus to be scrolled by keyboard too. */}
          <div class="table-wrap" tabIndex={0} role="region" aria-labelledby="per-experience-caption">
            <table class="per-experience">
              <caption id="per-experience-caption">Bookings, guests, revenue and cancellations per experience</caption>
              <thead>
                <tr>
                  <th scope="col">Experience</th>
                  <FigureHeads />
                </tr>
              </thead>
              <tbody>
                {experiences.map((e) => (
                  <tr key={e.experience.id}>
                    <th scope="row">{e.experience.title}</th>
                    <FigureCells f={e} currency={currency} />
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      ) : (
        <p class="quiet">No experience had a booking or a cancellation in these days.</p>
      )}
    </section>
  );
}

/** From and To, checked before they are asked for; each error beside its field, focus on the first. */
function RangeForm({ m }: { m: Model }): JSX.Element {
  const i = m.insights;
  const f = i.data.value;
  const days = f?.daily.days ?? [];
  const r = i.range.value ?? (days.length ? { startDate: days[0]!.date, endDate: days.at(-1)!.date } : null);
  const errors = i.fieldErrors.value;
  return (
    <form
      key={i.formKey.value}
      class="insights-range"
      aria-label="Period"
      noValidate
      onSubmit={(e) => {
        const form = formOf(e);
        if (!i.show(form.value('startDate'), form.value('endDate'))) {
          const first = (['startDate', 'endDate'] as const).find((name) => i.fieldErrors.peek()[name]);
          if (first) requestAnimationFrame(() => document.getElementById(first)?.focus());
        }
      }}
    >
      <Field name="startDate" type="date" label="From" value={r?.startDate} error={errors['startDate']} />
      <Field name="endDate" type="date" label="To" value={r?.endDate} error={errors['endDate']} hint="At most 366 days after “From”." />
      <div class="buttons">
        <button type="submit" class="primary">
          Show figures
        </button>
        {i.range.value ? (
          <a class="button" href="/dashboard/insights">
            Last 30 days
          </a>
        ) : null}
      </div>
    </form>
  );
}

function Downloads({ m }: { m: Model }): JSX.Element {
  const i = m.insights;
  const busy = i.downloading.value;
  return (
    <section class="insight" aria-labelledby="downloads-heading">
      <h2 id="downloads-heading">Downloads</h2>
      <p class="quiet">The figures of these days as CSV files, for a spreadsheet.</p>
      <div class="buttons">
        <button type="button" onClick={() => void i.download('daily')} aria-disabled={busy === 'daily' ? 'true' : undefined}>
          Download daily CSV
        </button>
        <button type="button" onClick={() => void i.download('experiences')} aria-disabled={busy === 'experiences' ? 'true' : undefined}>
          Download per-experience CSV
        </button>
      </div>
      {i.downloadError.value ? (
        <p class="alert" role="alert">
          {i.downloadError.value}
        </p>
      ) : null}
    </section>
  );
}

export function Insights({ m }: { m: Model }): JSX.Element {
  const { data, loading, error, totals } = m.insights;
  const f = data.value;
  const t = totals.value;
  const days = f?.daily.days ?? [];
  const quiet = !!t && t.bookings === 0 && t.cancellations === 0;
  const custom = m.insights.range.value !== null;
  return (
    <main id="main" class="insights">
      <h1 id="heading" tabIndex={-1}>
        Insights
      </h1>
      <RangeForm m={m} />
      {f && days.length ? (
        <p class="lede">
          {custom ? 'From' : 'The last 30 days,'} {fullDay(days[0]!.date)} to {fullDay(days.at(-1)!.date)}, in {f.daily.timezone} time. Bookings
          count on the day they were made; those cancelled since are left out of bookings, guests and revenue. Guests count every ticket,
          infants on a lap included; occupancy counts places.
        </p>
      ) : null}
      <p class="status-line" role="status">
        {loading.value ? 'Loading the figures…' : ''}
      </p>
      {error.value ? (
        <div class="alert" role="alert">
          <p>The figures could not be loaded: {error.value}</p>
          <button type="button" onClick={() => m.insights.retry()}>
            Try again
          </button>
        </div>
      ) : null}
      {f && t && days.length ? (
        <>
          <section class="insight" aria-labelledby="totals-heading">
            <h2 id="totals-heading">Totals</h2>
            <dl class="totals">
              <div>
                <dt>Bookings</dt>
                <dd>{t.bookings}</dd>
              </div>
              <div>
                <dt>Guests</dt>
                <dd>{t.participants}</dd>
              </div>
              <div>
                <dt>Revenue</dt>
                <dd>{money(t.revenue, f.daily.currency)}</dd>
              </div>
              <div>
                <dt>Cancellations</dt>
                <dd>{t.cancellations}</dd>
              </div>
            </dl>
          </section>
          {quiet ? (
            <div class="empty">
              <h2>{custom ? 'No bookings in these days' : 'No bookings in the last 30 days'}</h2>
              <p>
                Bookings show here on the day they are made, through the widget on your site or with the API (<code>POST /v1/bookings</code>).
                Put the widget on a page from an experience's Embed section.
              </p>
            </div>
          ) : (
            <>
              <DailyCharts f={f} totals={t} />
              <PerExperience f={f} />
            </>
          )}
          <Occupancy f={f} custom={custom} />
          <Downloads m={m} />
        </>
      ) : null}
    </main>
  );
}

/** The four figures' column headings, in the order FigureCells writes them. */
function FigureHeads(): JSX.Element {
  return (
    <>
      <th scope="col" class="num">Bookings</th>
      <th scope="col" class="num">Guests</th>
      <th scope="col" class="num">Revenue</th>
      <th scope="col" class="num">Cancellations</th>
    </>
  );
}

/** A row's figures: bookings, guests, revenue and cancellations, as the daily and per-experience reports count them. */
function FigureCells({ f, currency }: { f: { bookings: number; participants: number; revenue: string; cancellations: number }; currency: string }): JSX.Element {
  return (
    <>
      <td class="num">{f.bookings}</td>
      <td class="num">{f.participants}</td>
      <td class="num">{money(f.revenue, currency)}</td>
      <td class="num">{f.cancellations}</td>
    </>
  );
}
