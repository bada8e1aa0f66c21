/**
 * What an experience's page shows once it is saved: its next slots as the server offers them, and
 * the widget snippet to paste into a web page.
 */
import type { JSX } from 'preact';
import type { Experience } from '../../shared/index.js';
import { dateTimeIn, plural } from '../format.js';
import type { Model } from '../state/model.js';
import { CopyField } from './CopyButton.js';
import { FieldError } from './experience-fields.js';

/** How many of the next slots the preview lists. */
const SHOWN = 8;

export const KEY_PLACEHOLDER = 'opk_YOUR_PUBLISHABLE_KEY';
const PUBLISHABLE = /^opk_[A-Za-z0-9]+$/;

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
                {s.booked}/{s.capacity} booked
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
  const pasted = x.embedKey.value;
  const wrong = pasted && !PUBLISHABLE.test(pasted);
  const key = pasted && !wrong ? pasted : KEY_PLACEHOLDER;
  const active = (x.keys.value ?? []).filter((k) => k.type === 'publishable' && !k.revokedAt);
  const error = wrong
    ? pasted.startsWith('osk_')
      ? 'That is a secret key: it must never be in a web page. Paste a publishable key (opk_…).'
      : 'A publishable key starts with opk_ and has only letters and digits.'
    : undefined;
  return (
    <section class="exp-embed" aria-labelledby="embed-title">
      <h2 id="embed-title">Embed</h2>
      <p>
        Paste this where the booking widget should appear on your site. Outing shows a key in full only once, when it is made, so the snippet holds{' '}
        <code>{KEY_PLACEHOLDER}</code> until you paste your publishable key below (it stays in this page only).
      </p>
      <p class="hint" id="embed-keys">
        {x.keys.value === null
          ? ''
          : active.length
            ? `Your organization’s publishable keys: ${active.map((k) => `${k.name} (${k.prefix}…)`).join(', ')}.`
            : 'Your organization has no active publishable key.'}{' '}
        A new one can be made in <a href="/dashboard/settings">Settings</a>, under API keys; <code>outing init</code> printed the first.
      </p>
      <div class={`field${error ? ' invalid' : ''}`}>
        <label for="embed-key">Publishable key</label>
        <input
          id="embed-key"
          type="text"
          defaultValue={pasted}
          autoComplete="off"
          spellcheck={false}
          onInput={(e) => x.setEmbedKey((e.currentTarget as HTMLInputElement).value)}
          aria-invalid={error ? 'true' : undefined}
          aria-describedby={['embed-keys', error ? 'embed-key-error' : ''].filter(Boolean).join(' ')}
        />
        <FieldError id="embed-key" error={error} />
      </div>
      <CopyField id="embed-snippet" label="Widget snippet" value={snippetOf(location.origin, key, experience.id)} multiline />
    </section>
  );
}
