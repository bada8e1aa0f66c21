import type { JSX } from 'preact';
import { signal } from '../state/signals.js';

/** Which value was copied last, so its button can say so; one at a time is enough. */
const copied = signal<string | null>(null);
let timer: ReturnType<typeof setTimeout> | undefined;

async function copy(id: string, text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
  } catch {
    // No clipboard (an insecure origin, a refused permission): select the text for Ctrl+C instead.
    const field = document.getElementById(id);
    if (field instanceof HTMLInputElement || field instanceof HTMLTextAreaElement) {
      field.focus();
      field.select();
    }
    return;
  }
  copied.value = id;
  clearTimeout(timer);
  timer = setTimeout(() => (copied.value = null), 4000);
}

/**
 * A value to copy (a key, a snippet, a link) in a read-only field, and a "Copy" button. The field
 * is labelled and selectable, so copying works without the clipboard API too.
 */
export function CopyField({ id, label, value, multiline = false, hint }: { id: string; label: string; value: string; multiline?: boolean; hint?: string }): JSX.Element {
  const done = copied.value === id;
  return (
    <div class="field copy">
      <label for={id}>{label}</label>
      {hint ? (
        <p class="hint" id={`${id}-hint`}>
          {hint}
        </p>
      ) : null}
      <div class="copy-row">
        {multiline ? (
          <textarea id={id} readOnly rows={4} value={value} spellcheck={false} aria-describedby={hint ? `${id}-hint` : undefined} />
        ) : (
          <input id={id} readOnly value={value} spellcheck={false} aria-describedby={hint ? `${id}-hint` : undefined} />
        )}
        <button type="button" onClick={() => void copy(id, value)} aria-describedby={`${id}-copied`}>
          Copy
        </button>
      </div>
      <p class="copied" id={`${id}-copied`} role="status">
        {done ? 'Copied' : ''}
      </p>
    </div>
  );
}
