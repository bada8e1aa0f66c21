/**
 * Form fields that keep what the person typed across re-renders. The shared ones in Field.tsx pass
 * `value`/`checked`, which Preact re-applies on every render: the app re-renders as a whole, so a
 * busy state or a refusal would put the saved values back over unsaved edits. These give the
 * starting value as `defaultValue`/`defaultChecked` instead, with the same markup and classes.
 */
import type { JSX } from 'preact';

interface Common {
  /** The form field's name and the element's id (errors are keyed by it). */
  name: string;
  label: string;
  error?: string | undefined;
  hint?: string | undefined;
}

const describedBy = (id: string, hint?: string, error?: string): string | undefined =>
  [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;

function Hint({ id, hint }: { id: string; hint?: string | undefined }): JSX.Element | null {
  return hint ? (
    <p class="hint" id={`${id}-hint`}>
      {hint}
    </p>
  ) : null;
}

export function FieldError({ id, error }: { id: string; error?: string | undefined }): JSX.Element | null {
  return error ? (
    <p class="field-error" id={`${id}-error`}>
      {error}
    </p>
  ) : null;
}

export function TextInput(
  p: Common & { value: string; type?: 'text' | 'number'; inputMode?: 'numeric' | 'decimal'; min?: number; max?: number; autoComplete?: string },
): JSX.Element {
  return (
    <div class={`field${p.error ? ' invalid' : ''}`}>
      <label for={p.name}>{p.label}</label>
      <Hint id={p.name} hint={p.hint} />
      <input
        id={p.name}
        name={p.name}
        type={p.type ?? 'text'}
        inputMode={p.inputMode}
        min={p.min}
        max={p.max}
        step={p.type === 'number' ? 1 : undefined}
        defaultValue={p.value}
        autoComplete={p.autoComplete ?? 'off'}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p.name, p.hint, p.error)}
      />
      <FieldError id={p.name} error={p.error} />
    </div>
  );
}

export function TextBox(p: Common & { value: string; rows?: number }): JSX.Element {
  return (
    <div class={`field${p.error ? ' invalid' : ''}`}>
      <label for={p.name}>{p.label}</label>
      <Hint id={p.name} hint={p.hint} />
      <textarea
        id={p.name}
        name={p.name}
        rows={p.rows ?? 4}
        defaultValue={p.value}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p.name, p.hint, p.error)}
      />
      <FieldError id={p.name} error={p.error} />
    </div>
  );
}

export function CheckField(p: Common & { checked: boolean }): JSX.Element {
  return (
    <div class={`field check${p.error ? ' invalid' : ''}`}>
      <input
        id={p.name}
        name={p.name}
        type="checkbox"
        defaultChecked={p.checked}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={describedBy(p.name, p.hint, p.error)}
      />
      <label for={p.name}>{p.label}</label>
      <Hint id={p.name} hint={p.hint} />
      <FieldError id={p.name} error={p.error} />
    </div>
  );
}

/**
 * Every field error of a refused form at its top, each a link to its field (the GOV.UK error
 * summary). The links move focus themselves: a jump to `#id` would be a navigation of the router.
 */
export function ErrorSummary({ fields, labelOf }: { fields: Record<string, string>; labelOf: (id: string) => string }): JSX.Element | null {
  const entries = Object.entries(fields);
  if (!entries.length) return null;
  return (
    <section class="exp-error-summary" id="error-summary" tabIndex={-1} aria-labelledby="error-summary-title">
      <h2 id="error-summary-title">There is a problem</h2>
      <ul>
        {entries.map(([id, message]) => (
          <li key={id}>
            <a
              href={`#${id}`}
              onClick={(e) => {
                e.preventDefault();
                document.getElementById(id)?.focus();
              }}
            >
              {labelOf(id)}: {message}
            </a>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A price in the organization's currency, typed as `12.50` (or `12,5`), shown from its cents. */
export function PriceInput(p: { name: string; cents: number | undefined; error: string | undefined; per: string; currency: string | undefined }): JSX.Element {
  return (
    <TextInput
      name={p.name}
      label="Price"
      inputMode="decimal"
      value={p.cents === undefined ? '' : (p.cents / 100).toFixed(2)}
      error={p.error}
      hint={`Per ${p.per}${p.currency ? `, in ${p.currency}` : ''} (0 for free).`}
    />
  );
}

/**
 * A list the experience keeps entry by entry (price categories, questions, extras): its heading, a
 * hint, its entries, and the button that adds one while there is room. Ids follow the list's name
 * (`{list}-title`, `{list}-hint`) and the button's is `add-{one}`, where an error about adding shows.
 */
export function EntryList(p: {
  list: string;
  one: string;
  title: string;
  hint: string;
  entries: JSX.Element[];
  max: number;
  error: string | undefined;
  onAdd: () => void;
}): JSX.Element {
  return (
    <section class="exp-categories" aria-labelledby={`${p.list}-title`}>
      <h2 id={`${p.list}-title`}>{p.title}</h2>
      <p class="hint" id={`${p.list}-hint`}>
        {p.hint}
      </p>
      {p.entries}
      <FieldError id={`add-${p.one}`} error={p.error} />
      {p.entries.length < p.max ? (
        <button type="button" id={`add-${p.one}`} aria-describedby={`${p.list}-hint`} onClick={p.onAdd}>
          Add {p.one}
        </button>
      ) : null}
    </section>
  );
}
