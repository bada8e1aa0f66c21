/** Pieces every Settings section is built from: a record's card, its facts, times, the value shown once. */
import type { ComponentChildren, JSX } from 'preact';
import { CopyField } from '../components/CopyButton.js';
import { Field, FormAlert } from '../components/Field.js';
import { dateTimeIn } from '../format.js';
import type { FormState } from '../state/context.js';
import type { Model } from '../state/model.js';

/** The organization's zone: every time on these pages is shown in it. */
export const zoneOf = (m: Model): string => m.settings.org.value?.timezone ?? 'UTC';

/** An instant in the organization's zone, or what its absence means ("Never"). */
export const when = (m: Model, at: string | null, none = 'Never'): JSX.Element | string =>
  at ? <time dateTime={at}>{dateTimeIn(at, zoneOf(m))}</time> : none;

/**
 * One record of a short list (a key, an endpoint, a user): its name as a heading, its facts as
 * [term, value] pairs, anything more under them (`body`: a value to copy), and its buttons (`off`:
 * revoked or disabled, shown greyed), which name the record through `aria-describedby={id}`.
 */
export function Card({ id, title, level = 3, facts, off, body, children }: { id: string; title: ComponentChildren; level?: 3 | 4; off?: unknown; facts: (readonly [string, ComponentChildren] | false | null | undefined)[]; body?: ComponentChildren; children?: ComponentChildren }): JSX.Element {
  const H = level === 3 ? 'h3' : 'h4';
  return (
    <li class={off ? 'record off' : 'record'}>
      <H id={id}>{title}</H>
      <dl class="facts">
        {facts.map((f) =>
          f ? (
            <div key={f[0]}>
              <dt>{f[0]}</dt>
              <dd>{f[1]}</dd>
            </div>
          ) : null,
        )}
      </dl>
      {body}
      <div class="buttons">{children}</div>
    </li>
  );
}

/** A text field of a form whose state is `f`, its id prefixed, its refusal beside it. */
export const fieldOf =
  (f: FormState, idPrefix: string) =>
  (name: string, label: string, more: Partial<Parameters<typeof Field>[0]> = {}): JSX.Element => (
    <Field idPrefix={idPrefix} name={name} label={label} type="text" error={f.fields[name]} {...more} />
  );

/** A list's cards, or what to do while there are none. */
export function Cards({ items, empty, children }: { items: unknown[] | null; empty: string; children: ComponentChildren }): JSX.Element | null {
  if (!items) return null;
  return items.length ? <ul class="records">{children}</ul> : <p class="empty">{empty}</p>;
}

/** A create form's frame: its heading, its alert, its fields, and a submit button that says when it is busy. */
export function CreateForm(p: { id: string; title: string; level?: 3 | 4; state: FormState; button: string; busyButton: string; onSubmit: (e: Event) => void; children: ComponentChildren }): JSX.Element {
  const H = p.level === 4 ? 'h4' : 'h3';
  return (
    <form class="card create" noValidate aria-labelledby={p.id} aria-busy={p.state.busy ? 'true' : undefined} onSubmit={p.onSubmit}>
      <H id={p.id}>{p.title}</H>
      <FormAlert error={p.state.error} />
      {p.children}
      <button class="primary" type="submit" aria-disabled={p.state.busy ? 'true' : undefined}>
        {p.state.busy ? p.busyButton : p.button}
      </button>
    </form>
  );
}

/** Checkboxes of one name (scopes, event kinds) in a fieldset; none ticked means "all". */
export function Choices({ prefix, name, legend, hint, options, error, labelOf = (o) => o }: { prefix: string; name: string; legend: string; hint: string; options: readonly string[]; error?: string | undefined; labelOf?: (option: string) => string }): JSX.Element {
  const hintId = `${prefix}${name}-hint`;
  return (
    <fieldset class={`choices${error ? ' invalid' : ''}`} aria-describedby={hintId}>
      <legend>{legend}</legend>
      <p class="hint" id={hintId}>
        {hint}
      </p>
      <div class="choice-grid">
        {options.map((o) => (
          <div class="field check" key={o}>
            <input type="checkbox" id={`${prefix}${name}-${o}`} name={name} value={o} />
            <label for={`${prefix}${name}-${o}`}>{labelOf(o)}</label>
          </div>
        ))}
      </div>
      {error ? <p class="field-error">{error}</p> : null}
    </fieldset>
  );
}

/** The value Outing has just made and will not show again, with its Copy button and the warning. */
export function Revealed({ m }: { m: Model }): JSX.Element | null {
  const s = m.settings;
  const r = s.revealed.value;
  if (!r || r.section !== s.view.value.section) return null;
  return (
    <div class="revealed" role="group" aria-labelledby="revealed-title">
      <h3 id="revealed-title" tabIndex={-1}>
        {r.title}
      </h3>
      <p class="warning">
        <strong>Shown only this once.</strong> {r.text}
      </p>
      <CopyField id="revealed-value" label={r.label} value={r.value} />
      {r.beside ? <CopyField id="revealed-beside" label={r.beside.label} value={r.beside.value} hint={r.beside.hint} /> : null}
      <button type="button" onClick={() => s.hideRevealed()}>
        I have copied it
      </button>
    </div>
  );
}

/** Whether a record's buttons wait for an answer about it. */
export const busy = (m: Model, id: string): 'true' | undefined => (m.settings.working.value.has(id) ? 'true' : undefined);

/**
 * A log (activity, deliveries) as a table; on phones each row stacks, each cell named by its
 * column (settings.css). A row's first cell gets `id`, for its buttons to name it.
 */
export function LogTable({ columns, rows, label }: { columns: string[]; rows: [id: string, cells: ComponentChildren[]][]; label: string }): JSX.Element {
  return (
    <table class="stack" aria-label={label}>
      <thead>
        <tr>
          {columns.map((c) => (
            <th scope="col" key={c}>
              {c || <span class="visually-hidden">Actions</span>}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map(([id, cells]) => (
          <tr key={id}>
            {cells.map((c, i) => (
              <td key={i} id={i ? undefined : id} data-label={columns[i] || undefined}>
                {c}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
