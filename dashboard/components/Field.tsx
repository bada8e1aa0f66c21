import type { JSX } from 'preact';

interface FieldProps {
  name: string;
  label: string;
  type: 'email' | 'password' | 'text';
  autoComplete: string;
  /** Shown under the field and tied to it, so a screen reader reads it with the label. */
  error?: string | undefined;
  hint?: string;
}

/** A labelled input whose error sits next to it (`aria-invalid`, `aria-describedby`). */
export function Field({ name, label, type, autoComplete, error, hint }: FieldProps): JSX.Element {
  const described = [hint ? `${name}-hint` : '', error ? `${name}-error` : ''].filter(Boolean).join(' ');
  return (
    <div class={error ? 'field invalid' : 'field'}>
      <label for={name}>{label}</label>
      {hint ? (
        <p class="hint" id={`${name}-hint`}>
          {hint}
        </p>
      ) : null}
      <input
        id={name}
        name={name}
        type={type}
        autoComplete={autoComplete}
        required
        spellcheck={false}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={described || undefined}
      />
      {error ? (
        <p class="field-error" id={`${name}-error`}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Uncontrolled forms: the values are read once, on submit. */
export function valuesOf(e: Event): (name: string) => string {
  e.preventDefault();
  const data = new FormData(e.currentTarget as HTMLFormElement);
  return (name) => String(data.get(name) ?? '');
}
