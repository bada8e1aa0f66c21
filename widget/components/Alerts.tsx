/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { Fragment, h } from 'preact';
import type { Props } from './widget.js';

/** Loading, and errors (a slot taken meanwhile among them); role="alert" makes screen readers say them at once. */
export function Alerts({ w: { model, t } }: Props) {
  const trouble = model.trouble.value;
  return (
    <>
      {model.busy.value && <p class="loading">{t.loading}</p>}
      {trouble && (
        <div class="error">
          <p role="alert">{t.errors[trouble.problem]}</p>
          {trouble.retry && (
            <button type="button" onClick={trouble.retry}>
              {t.retry}
            </button>
          )}
        </div>
      )}
    </>
  );
}
