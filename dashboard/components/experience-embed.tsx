/**
 * What an experience's page shows once it is saved: its next slots as the server offers them, and
 * the widget snippet to paste into a web page.
 */
import type { JSX } from 'preact';
import type { Experience } from '../../shared/index.js';
import { dateTimeIn, plural } from '../format.js';
import type { Model } from '../state/model.js';
import { embedKeyOf } from '../state/experiences.js';
import { CopyField } from './CopyButton.js';

/** How many of the next slots the preview lists. */
const SHOWN = 8;

/** The README's embed snippet for one experience. */
export function snippetOf(origin: string, key: string, experienceId: string): string {
  return `<div data-outing data-key="${key}" data-experience="${experienceId}"></div>\n<script src="${origin}/widget.js" async></script>`;
}

export function SlotPreview({ m, experience }: { m: Model; experience: Experience }): JSX.Element {
  const { availability, loading, error } = m.experiences.preview.value;
  const slots = availability?.slots.slice(0, SHOWN) ?? [];
  return (
    <section class="exp-preview" aria-labelledby="preview-title">
      <h2 id="preview-title">Next slots</h2>
      <p class="hint">
        From the saved schedule, as guests see them{availability ? `, in ${availability.timezone} time` : ''}. Save your changes to see them here.
      </p>
      <p class="status-line" role="status">
        {loading ? 'Loading the next slots…' : availability ? plural(availability.slots.length, 'slot', 'slots') + ` from ${availability.startDate} to ${availability.endDate}` : ''}
      </p>
      {error ? (
        <p class="alert" role="alert">
          The next slots could not be loaded: {error}
        </p>
      ) : null}
      {availability && !slots.length ? (
        <p class="empty">
          {experience.active
            ? 'No slots in the next 30 days. Add start times to the schedule above and save.'
            : 'This experience is inactive, so it offers no slots. Tick “Active” and save to open them.'}
        </p>
      ) : null}
      {slots.length ? (
        <ul class="exp-next-slots">
          {slots.map((s) => (
            <li key={s.id}>
              <time dateTime={s.startTime}>{dateTimeIn(s.startTime, availability!.timezone)}</time>
              <span class={s.remaining ? 'load' : 'load full'}>
                {s.booked}/{s.capacity} places booked
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {availability?.slots.length ? (
        <p>
          <a href="/dashboard/calendar">See the week in the Calendar</a>
        </p>
      ) : null}
    </section>
  );
}

export function Embed({ m, experience }: { m: Model; experience: Experience }): JSX.Element {
  const x = m.experiences;
  const keys = x.keys.value;
  const { readError, busy, createError, notice } = x.embed.value;
  const key = keys ? embedKeyOf(keys) : undefined;
  // Publishable keys made before Outing kept their values: known by their start only.
  const older = (keys ?? []).filter((k) => k.type === 'publishable' && !k.revokedAt && !k.key);
  return (
    <section class="exp-embed" aria-labelledby="embed-title">
      <h2 id="embed-title">Embed</h2>
      <p class="status-line" role="status">
        {keys === null && !readError ? 'Loading your publishable key…' : (notice ?? '')}
      </p>
      {readError ? (
        <div class="alert" role="alert">
          <p>{readError}</p>
          <button type="button" onClick={x.retryKeys}>
            Try again
          </button>
        </div>
      ) : null}
      {key ? (
        <>
          <p>
            Paste this where the booking widget should appear on your site. It holds your publishable key “{key.name}”, which is safe to
            publish: it only lets guests see your experiences and book them.
          </p>
          <CopyField id="embed-snippet" label="Widget snippet" value={snippetOf(location.origin, key.key!, experience.id)} multiline />
          <p class="hint">
            Other keys, and new ones, are in <a href="/dashboard/settings/api-keys">Settings, under API keys</a>.
          </p>
        </>
      ) : keys ? (
        <>
          <p id="embed-no-key">
            The widget snippet needs a publishable key, and your organization has none that Outing can show
            {older.length
              ? ` (${older.map((k) => `${k.name}, ${k.prefix}…`).join('; ')} ${older.length === 1 ? 'was' : 'were'} made before Outing kept publishable keys, so only ${older.length === 1 ? 'its' : 'their'} start is known)`
              : ''}
            . Create one, and the snippet appears here with it.
          </p>
          {createError ? (
            <p class="alert" role="alert">
              {createError}
            </p>
          ) : null}
          <button type="button" class="primary" aria-describedby="embed-no-key" aria-disabled={busy ? 'true' : undefined} onClick={() => void x.createEmbedKey()}>
            {busy ? 'Creating…' : 'Create a publishable key'}
          </button>
        </>
      ) : null}
    </section>
  );
}
