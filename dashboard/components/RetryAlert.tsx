import type { JSX } from 'preact';

/** A load that failed: what went wrong, read out at once, and "Try again". Nothing when there is no error. */
export function RetryAlert({ error, onRetry }: { error: string | null | undefined; onRetry: () => void }): JSX.Element | null {
  return error ? (
    <div class="alert" role="alert">
      <p>{error}</p>
      <button type="button" onClick={onRetry}>
        Try again
      </button>
    </div>
  ) : null;
}
