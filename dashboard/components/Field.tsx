import type { ComponentChildren, JSX } from 'preact';

interface Common {
  /** The form field's name and the element's id: `details[].path` errors are matched by it. */
  name: string;
  label: string;
  /** Shown under the field and tied to it, so a screen reader reads it with the label. */
  error?: string | undefined;
  hint?: string | undefined;
  /**
   * The value the form starts with. Forms are uncontrolled (values are read on submit), so this is
   * set as the default only: the whole app re-renders on every signal, and a `value` prop would put
   * it back over what the person has typed.
   */
  value?: string | number | undefined;
  required?: boolean;
  /** An id prefix, when one page shows the same form twice. */
  idPrefix?: string;
}

interface InputProps extends Common {
  type: 'email' | 'password' | 'text' | 'number' | 'date' | 'time' | 'url' | 'search' | 'datetime-local';
  autoComplete?: string;
  min?: string | number;
  max?: string | number;
  step?: string | number;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'url' | 'search';
  onInput?: (value: string) => void;
}

function described(id: string, hint?: string, error?: string): string | undefined {
  return [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

/** The label, the hint, the control and its error, in the one order every field of the dashboard uses. */
function Frame({ id, label, hint, error, children, inline }: { id: string; label: string; hint?: string | undefined; error?: string | undefined; children: ComponentChildren; inline?: boolean }): JSX.Element {
  return (
    <div class={`field${inline ? ' inline' : ''}${error ? ' invalid' : ''}`}>
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      {children}
      {error ? (
        <p class="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A labelled input whose error sits next to it (`aria-invalid`, `aria-describedby`). */
export function Field(p: InputProps): JSX.Element {
  const id = (p.idPrefix ?? '') + p.name;
  return (
    <Frame id={id} label={p.label} hint={p.hint} error={p.error}>
      <input
        id={id}
        name={p.name}
        type={p.type}
        autoComplete={p.autoComplete ?? 'off'}
        required={p.required ?? true}
        spellcheck={false}
        defaultValue={p.value === undefined ? undefined : String(p.value)}
        min={p.min}
        max={p.max}
        step={p.step}
        inputMode={p.inputMode}
        onInput={p.onInput ? (e) => p.onInput!((e.currentTarget as HTMLInputElement).value) : undefined}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, p.error)}
      />
    </Frame>
  );
}

/** A labelled multi-line text field. */
export function TextArea(p: Common & { rows?: number }): JSX.Element {
  const id = (p.idPrefix ?? '') + p.name;
  return (
    <Frame id={id} label={p.label} hint={p.hint} error={p.error}>
      <textarea
        id={id}
        name={p.name}
        rows={p.rows ?? 4}
        required={p.required ?? false}
        defaultValue={p.value === undefined ? undefined : String(p.value)}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, p.error)}
      />
    </Frame>
  );
}

/** A labelled choice among a few options (`[value, label]`). */
export function Select(
  p: Common & { options: readonly (readonly [value: string, label: string])[]; inline?: boolean; onChange?: (value: string) => void },
): JSX.Element {
  const id = (p.idPrefix ?? '') + p.name;
  return (
    <Frame id={id} label={p.label} hint={p.hint} error={p.error} inline={p.inline ?? false}>
      <select
        id={id}
        name={p.name}
        onChange={p.onChange ? (e) => p.onChange!((e.currentTarget as HTMLSelectElement).value) : undefined}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, p.error)}
      >
        {p.options.map(([value, label]) => (
          <option key={value} value={value} selected={p.value === undefined ? undefined : String(p.value) === value}>
            {label}
          </option>
        ))}
      </select>
    </Frame>
  );
}

/** A labelled checkbox; its error and hint sit under it. */
export function Checkbox(p: Omit<Common, 'value'> & { checked?: boolean }): JSX.Element {
  const id = (p.idPrefix ?? '') + p.name;
  return (
    <div class={`field check${p.error ? ' invalid' : ''}`}>
      <input
        id={id}
        name={p.name}
        type="checkbox"
        defaultChecked={p.checked}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described(id, p.hint, p.error)}
      />
      <label for={id}>{p.label}</label>
      {p.hint ? (
        <p class="hint" id={`${id}-hint`}>
          {p.hint}
        </p>
      ) : null}
      {p.error ? (
        <p class="field-error" id={`${id}-error`}>
          {p.error}
        </p>
      ) : null}
    </div>
  );
}

/** A form's error that names no field, read out at once. */
export function FormAlert({ error }: { error: string | null }): JSX.Element | null {
  return error ? (
    <p class="alert" role="alert">
      {error}
    </p>
  ) : null;
}

/** Uncontrolled forms: the values are read once, on submit. */
export function valuesOf(e: Event): (name: string) => string {
  e.preventDefault();
  const data = new FormData(e.currentTarget as HTMLFormElement);
  return (name) => String(data.get(name) ?? '');
}

/** Every value of a submitted form, checkboxes as booleans (an unchecked one is absent from FormData). */
export function formOf(e: Event): { value(name: string): string; checked(name: string): boolean; all(name: string): string[] } {
  e.preventDefault();
  const form = e.currentTarget as HTMLFormElement;
  const data = new FormData(form);
  return {
    value: (name) => String(data.get(name) ?? ''),
    checked: (name) => (form.elements.namedItem(name) as HTMLInputElement | null)?.checked ?? false,
    all: (name) => data.getAll(name).map(String),
  };
}
