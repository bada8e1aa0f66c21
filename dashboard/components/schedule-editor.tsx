/**
 * The weekly schedule editor: start times per weekday, dated exceptions, the first and last day,
 * and the time zone the times are read in. Its rows are the model's (`m.experiences.draft`), so
 * they are controlled inputs: each change goes to the model at once.
 */
import type { JSX } from 'preact';
import { WEEKDAYS, type Weekday } from '../../shared/index.js';
import type { Model } from '../state/model.js';
import { ids, type TimeRow } from '../state/experiences.js';
import { FieldError } from './experience-fields.js';

export const DAY_NAMES: Record<Weekday, string> = {
  mon: 'Monday',
  tue: 'Tuesday',
  wed: 'Wednesday',
  thu: 'Thursday',
  fri: 'Friday',
  sat: 'Saturday',
  sun: 'Sunday',
};

let zones: string[] | undefined;
/** Every IANA zone this browser knows, once; UTC included (some engines leave it out). */
function knownZones(): string[] {
  if (!zones) {
    const listed = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
    zones = listed.includes('UTC') ? listed : [...listed, 'UTC'];
  }
  return zones;
}

const described = (id: string, error?: string) => (error ? `${id}-error` : undefined);
const valueOf = (e: Event) => (e.currentTarget as HTMLInputElement).value;

/** One start time: its input (labelled for screen readers by day and position) and its "Remove". */
function Time(p: { id: string; owner: string; n: number; t: TimeRow; error?: string | undefined; onInput: (v: string) => void; onRemove: () => void }): JSX.Element {
  const label = `${p.owner}, time ${p.n}`;
  return (
    <li class={p.error ? 'exp-time invalid' : 'exp-time'}>
      <label class="visually-hidden" for={p.id}>
        {label}
      </label>
      <input id={p.id} type="time" value={p.t.value} onInput={(e) => p.onInput(valueOf(e))} aria-invalid={p.error ? 'true' : undefined} aria-describedby={described(p.id, p.error)} />
      <button type="button" onClick={p.onRemove}>
        Remove<span class="visually-hidden"> {p.owner} {p.t.value || `time ${p.n}`}</span>
      </button>
      <FieldError id={p.id} error={p.error} />
    </li>
  );
}

function Day({ m, day }: { m: Model; day: Weekday }): JSX.Element {
  const x = m.experiences;
  const rows = x.draft.value.weekly[day];
  const fields = x.form.value.fields;
  const name = DAY_NAMES[day];
  const addId = ids.addTime(day);
  return (
    <fieldset class="exp-day">
      <legend>{name}</legend>
      {rows.length ? (
        <ul class="exp-times">
          {rows.map((t, i) => (
            <Time
              key={t.key}
              id={ids.time(day, t.key)}
              owner={name}
              n={i + 1}
              t={t}
              error={fields[ids.time(day, t.key)]}
              onInput={(v) => x.editor.setTime(day, t.key, v)}
              onRemove={() => x.editor.removeTime(day, t.key)}
            />
          ))}
        </ul>
      ) : (
        <p class="quiet">No times</p>
      )}
      <FieldError id={addId} error={fields[addId]} />
      <button type="button" id={addId} onClick={() => x.editor.addTime(day)} aria-describedby={described(addId, fields[addId])}>
        Add time<span class="visually-hidden"> on {name}</span>
      </button>
    </fieldset>
  );
}

function Exceptions({ m }: { m: Model }): JSX.Element {
  const x = m.experiences;
  const fields = x.form.value.fields;
  const list = x.draft.value.exceptions;
  return (
    <section class="exp-exceptions" aria-labelledby="exceptions-title">
      <h3 id="exceptions-title">Exceptions</h3>
      <p class="hint">A date listed here keeps only its own times instead of its weekday’s; with no times it is closed all day.</p>
      {list.length ? (
        <ul class="exp-exception-list">
          {list.map((e, n) => {
            const dateId = ids.exceptionDate(e.key);
            const addId = ids.addExceptionTime(e.key);
            const title = e.date ? `Exception on ${e.date}` : `Exception ${n + 1}`;
            return (
              <li key={e.key}>
                <fieldset class="exp-exception">
                  <legend>{title}</legend>
                  <div class={`field${fields[dateId] ? ' invalid' : ''}`}>
                    <label for={dateId}>Date</label>
                    <input
                      id={dateId}
                      type="date"
                      value={e.date}
                      onInput={(ev) => x.editor.setExceptionDate(e.key, valueOf(ev))}
                      aria-invalid={fields[dateId] ? 'true' : undefined}
                      aria-describedby={described(dateId, fields[dateId])}
                    />
                    <FieldError id={dateId} error={fields[dateId]} />
                  </div>
                  {e.times.length ? (
                    <ul class="exp-times">
                      {e.times.map((t, i) => {
                        const id = ids.exceptionTime(e.key, t.key);
                        return (
                          <Time
                            key={t.key}
                            id={id}
                            owner={title}
                            n={i + 1}
                            t={t}
                            error={fields[id]}
                            onInput={(v) => x.editor.setExceptionTime(e.key, t.key, v)}
                            onRemove={() => x.editor.removeExceptionTime(e.key, t.key)}
                          />
                        );
                      })}
                    </ul>
                  ) : (
                    <p class="exp-closed">Closed all day</p>
                  )}
                  <FieldError id={addId} error={fields[addId]} />
                  <div class="buttons">
                    <button type="button" id={addId} onClick={() => x.editor.addExceptionTime(e.key)} aria-describedby={described(addId, fields[addId])}>
                      Add time<span class="visually-hidden"> on {title}</span>
                    </button>
                    <button type="button" onClick={() => x.editor.removeException(e.key)}>
                      Remove exception<span class="visually-hidden"> {e.date || n + 1}</span>
                    </button>
                  </div>
                </fieldset>
              </li>
            );
          })}
        </ul>
      ) : null}
      <button type="button" id="add-exception" onClick={() => x.editor.addException()}>
        Add exception
      </button>
    </section>
  );
}

export function ScheduleEditor({ m }: { m: Model }): JSX.Element {
  const x = m.experiences;
  const d = x.draft.value;
  const fields = x.form.value.fields;
  const orgZone = x.organization.value?.timezone;
  const options = knownZones().includes(d.timezone) || !d.timezone ? knownZones() : [d.timezone, ...knownZones()];
  const zoneError = fields['schedule-timezone'];
  const dateField = (field: 'startDate' | 'endDate', label: string, hint: string) => {
    const id = `schedule-${field}`;
    return (
      <div class={`field${fields[id] ? ' invalid' : ''}`}>
        <label for={id}>{label}</label>
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
        <input
          id={id}
          type="date"
          value={d[field]}
          onInput={(e) => x.editor.set(field, valueOf(e))}
          aria-invalid={fields[id] ? 'true' : undefined}
          aria-describedby={[`${id}-hint`, fields[id] ? `${id}-error` : ''].filter(Boolean).join(' ')}
        />
        <FieldError id={id} error={fields[id]} />
      </div>
    );
  };
  return (
    <section class="exp-schedule" id="schedule" tabIndex={-1} aria-labelledby="schedule-title">
      <h2 id="schedule-title">Schedule</h2>
      <p class="hint">Start times on each weekday, as the clock reads in the time zone below (summer time included).</p>
      <FieldError id="schedule" error={fields['schedule']} />
      <div class={`field${zoneError ? ' invalid' : ''}`}>
        <label for="schedule-timezone">Time zone</label>
        <select
          id="schedule-timezone"
          value={d.timezone}
          onChange={(e) => x.editor.set('timezone', (e.currentTarget as HTMLSelectElement).value)}
          aria-invalid={zoneError ? 'true' : undefined}
          aria-describedby={described('schedule-timezone', zoneError)}
        >
          <option value="">{orgZone ? `The organization’s (${orgZone})` : 'The organization’s time zone'}</option>
          {options.map((z) => (
            <option key={z} value={z}>
              {z}
            </option>
          ))}
        </select>
        <FieldError id="schedule-timezone" error={zoneError} />
      </div>
      <div class="exp-range">
        {dateField('startDate', 'Starts on', 'Optional: no slots before this date.')}
        {dateField('endDate', 'Ends on', 'Optional: the last date with slots.')}
      </div>
      <h3>Weekly times</h3>
      <div class="exp-week">
        {WEEKDAYS.map((day) => (
          <Day key={day} m={m} day={day} />
        ))}
      </div>
      <Exceptions m={m} />
    </section>
  );
}
