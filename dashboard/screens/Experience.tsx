import type { JSX } from 'preact';
import type { Experience as ExperienceRecord } from '../../shared/index.js';
import { formOf, FormAlert } from '../components/Field.js';
import { Embed, SlotPreview } from '../components/experience-embed.js';
import { CheckField, ErrorSummary, TextBox, TextInput } from '../components/experience-fields.js';
import { DAY_NAMES, ScheduleEditor } from '../components/schedule-editor.js';
import { PriceCategories } from '../components/experience-categories.js';
import { Extras, Questions } from '../components/experience-lists.js';
import type { Model } from '../state/model.js';
import { WEEKDAYS } from '../../shared/index.js';
import '../styles/experiences.css';
import { titleExperience } from './titles.js';
import { RetryAlert } from '../components/RetryAlert.js';

/** The form's labels, as the error summary names the fields. */
const LABELS: Record<string, string> = {
  name: 'Name',
  description: 'Description',
  duration: 'Duration',
  price: 'Price',
  maxParticipants: 'Maximum participants',
  maxPerBooking: 'Max per booking',
  minNoticeMinutes: 'Notice',
  maxAdvanceDays: 'Booking window',
  active: 'Active',
  waitlist: 'Waitlist',
  meetingPoint: 'Meeting point',
  meetingPointUrl: 'Map link',
  guestInstructions: 'Instructions for guests',
  schedule: 'Schedule',
  'schedule-timezone': 'Time zone',
  'schedule-startDate': 'Starts on',
  'schedule-endDate': 'Ends on',
};

function labelOf(m: Model, id: string): string {
  const day = WEEKDAYS.find((d) => id === `add-${d}` || id.startsWith(`time-${d}-`));
  if (day) {
    const n = m.experiences.draft.value.weekly[day].findIndex((t) => id === `time-${day}-${t.key}`);
    return n < 0 ? DAY_NAMES[day] : `${DAY_NAMES[day]}, time ${n + 1}`;
  }
  if (id.startsWith('pc-') || id === 'add-category') {
    const rows = m.experiences.draft.value.categories;
    const n = rows.findIndex((r) => id.startsWith(`pc-${r.key}-`));
    const field = { name: 'name', price: 'price', type: 'type', occupiesPlace: 'place', minAge: 'minimum age', maxAge: 'maximum age' }[id.split('-')[2] ?? ''];
    return n < 0 ? 'Price categories' : `Category ${n + 1}, ${field ?? 'name'}`;
  }
  const entry = /^(question|extra)-(\d+)-(\w+)$/.exec(id);
  if (entry || id === 'add-question' || id === 'add-extra') {
    const question = entry ? entry[1] === 'question' : id === 'add-question';
    const rows: { key: number }[] = question ? m.experiences.draft.value.questions : m.experiences.draft.value.extras;
    const n = entry ? rows.findIndex((r) => r.key === Number(entry[2])) : -1;
    const words: Record<string, string> = { label: 'question', type: 'type', options: 'options', required: 'required', help: 'help', name: 'name', description: 'description', price: 'price', per: 'counted', maxQuantity: 'maximum', active: 'active' };
    if (n < 0) return question ? 'Questions' : 'Extras';
    return `${question ? 'Question' : 'Extra'} ${n + 1}, ${words[entry![3]!] ?? entry![3]}`;
  }
  if (id.startsWith('exception-')) {
    const key = Number(id.split('-')[1]);
    const date = m.experiences.draft.value.exceptions.find((x) => x.key === key)?.date;
    return date ? `Exception on ${date}` : 'Exception';
  }
  return LABELS[id] ?? id;
}

function Form({ m, experience }: { m: Model; experience: ExperienceRecord | null }): JSX.Element {
  const x = m.experiences;
  const { busy, error, fields } = x.form.value;
  const currency = experience?.currency ?? x.organization.value?.currency;
  return (
    <form
      // A new form for another experience: the fields start from its values, not the last one's edits.
      key={experience?.id ?? 'new'}
      class="experience-form"
      noValidate
      aria-busy={busy ? 'true' : undefined}
      onSubmit={(e) => void x.save(formOf(e))}
    >
      <ErrorSummary fields={fields} labelOf={(id) => labelOf(m, id)} />
      <div id="form-alert" tabIndex={-1}>
        <FormAlert error={error} />
      </div>
      <section class="exp-details" aria-labelledby="details-title">
        <h2 id="details-title">Details</h2>
        <TextInput name="name" label="Name" value={experience?.name ?? ''} error={fields['name']} />
        <TextBox name="description" label="Description" value={experience?.description ?? ''} error={fields['description']} hint="Shown to guests in the widget." />
        <div class="exp-pair">
          <TextInput name="duration" label="Duration" type="number" min={1} max={1440} value={String(experience?.duration ?? 60)} error={fields['duration']} hint="In minutes." />
          <TextInput
            name="price"
            label="Price"
            inputMode="decimal"
            value={experience ? (experience.price / 100).toFixed(2) : ''}
            error={fields['price']}
            hint={`Per person${currency ? `, in ${currency}` : ''}, such as 25.00.`}
          />
        </div>
        <div class="exp-pair">
          <TextInput
            name="maxParticipants"
            label="Maximum participants"
            type="number"
            min={1}
            max={10000}
            value={String(experience?.maxParticipants ?? 10)}
            error={fields['maxParticipants']}
            hint="Places in each time slot."
          />
          <TextInput
            name="maxPerBooking"
            label="Max per booking"
            type="number"
            min={1}
            value={experience ? String(experience.maxPerBooking) : ''}
            error={fields['maxPerBooking']}
            hint="The largest party one booking may have. Empty: up to the maximum participants."
          />
        </div>
        <div class="exp-pair">
          <TextInput
            name="minNoticeMinutes"
            label="Notice"
            type="number"
            min={0}
            value={String(experience?.minNoticeMinutes ?? 0)}
            error={fields['minNoticeMinutes']}
            hint="Minutes before a start when booking closes (0: until it starts)."
          />
          <TextInput
            name="maxAdvanceDays"
            label="Booking window"
            type="number"
            min={1}
            max={730}
            value={String(experience?.maxAdvanceDays ?? 365)}
            error={fields['maxAdvanceDays']}
            hint="How many days ahead guests may book (1–730)."
          />
        </div>
        <CheckField name="active" label="Active" checked={experience?.active ?? true} error={fields['active']} hint="Inactive experiences offer no slots; their bookings stay." />
        <CheckField
          name="waitlist"
          label="Take a waitlist when full"
          checked={experience?.waitlist ?? false}
          error={fields['waitlist']}
          hint="Guests may join a full time’s waitlist in the widget; places that free up are offered to them in turn, each offer held for the time set in Settings. Turning it off stops new joins only."
        />
      </section>
      <section class="exp-details" aria-labelledby="guest-info-title">
        <h2 id="guest-info-title">Guest information</h2>
        <p class="hint">Shown in confirmation and reminder e-mails, on the widget’s confirmation and on the guest’s booking page.</p>
        <TextBox
          name="meetingPoint"
          label="Meeting point"
          rows={2}
          value={experience?.meetingPoint ?? ''}
          error={fields['meetingPoint']}
          hint="Where guests meet you, such as “Blue kiosk at the marina, Dock 3”. Also the calendar event’s location. Up to 500 characters."
        />
        <TextInput
          name="meetingPointUrl"
          label="Map link"
          value={experience?.meetingPointUrl ?? ''}
          error={fields['meetingPointUrl']}
          hint="An https link to the meeting point on a map. Optional."
          autoComplete="url"
        />
        <TextBox
          name="guestInstructions"
          label="Instructions for guests"
          value={experience?.guestInstructions ?? ''}
          error={fields['guestInstructions']}
          hint="What to bring, wear or know before coming. Up to 2,000 characters."
        />
      </section>
      <PriceCategories m={m} currency={currency} />
      <Questions m={m} />
      <Extras m={m} currency={currency} />
      <ScheduleEditor m={m} />
      <div class="exp-save">
        <button type="submit" class="primary" aria-disabled={busy ? 'true' : undefined}>
          {experience ? 'Save changes' : 'Create experience'}
        </button>
        <p class="status-line" role="status">
          {busy ? 'Saving…' : (x.saved.value ?? '')}
        </p>
      </div>
    </form>
  );
}

export function Experience({ m }: { m: Model }): JSX.Element {
  const x = m.experiences;
  const { id, experience, loading, error } = x.one.value;
  return (
    <main id="main" class="experience">
      <p class="exp-back">
        <a href="/dashboard/experiences">All experiences</a>
      </p>
      <div class="heading-row">
        <h1 id="heading" tabIndex={-1}>
          {titleExperience(m)}
        </h1>
        {experience ? <p class={experience.active ? 'exp-state active' : 'exp-state'}>{experience.active ? 'Active' : 'Inactive'}</p> : null}
      </div>
      {loading ? <p role="status">Loading the experience…</p> : null}
      <RetryAlert error={error} onRetry={() => x.retry()} />
      {id === 'new' || experience ? <Form m={m} experience={experience} /> : null}
      {experience ? <SlotPreview m={m} experience={experience} /> : null}
      {experience ? <Embed m={m} experience={experience} /> : null}
    </main>
  );
}
