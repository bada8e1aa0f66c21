import type { ComponentChildren, JSX } from 'preact';

interface ConfirmProps {
  /** The dialog's heading: the question ("Cancel booking BK-7F3K9Q2M?"). */
  title: string;
  /** The button that does it, named for what it does ("Cancel booking"), never "OK". */
  confirmLabel: string;
  /** What backs out without doing anything. */
  keepLabel?: string;
  onConfirm: (e: Event) => void;
  onClose: () => void;
  busy?: boolean;
  error?: string | null;
  /** Destructive: the button is red. */
  danger?: boolean;
  /** The consequences, and any field the action needs (a reason). Fields are read from the form on submit. */
  children?: ComponentChildren;
}

/**
 * Asks before something that cannot be undone. A native modal <dialog>: focus moves into it and
 * stays there, Escape closes it, and the page behind is inert to keyboard and screen readers. The
 * model decides whether it is open; rendering it opens it.
 */
export function Confirm(p: ConfirmProps): JSX.Element {
  return (
    <dialog
      class="confirm"
      aria-labelledby="confirm-title"
      ref={(el) => {
        if (el && !el.open) el.showModal();
      }}
      onCancel={(e) => {
        // Escape: the model closes it, so the next render agrees with what is on screen.
        e.preventDefault();
        if (!p.busy) p.onClose();
      }}
    >
      <form
        method="dialog"
        noValidate
        aria-busy={p.busy ? 'true' : undefined}
        onSubmit={(e) => {
          e.preventDefault();
          if (!p.busy) p.onConfirm(e);
        }}
      >
        <h2 id="confirm-title">{p.title}</h2>
        {p.children}
        {p.error ? (
          <p class="alert" role="alert">
            {p.error}
          </p>
        ) : null}
        <div class="buttons">
          <button type="submit" class={p.danger ? 'danger' : 'primary'} aria-disabled={p.busy ? 'true' : undefined}>
            {p.confirmLabel}
          </button>
          <button type="button" onClick={() => !p.busy && p.onClose()}>
            {p.keepLabel ?? 'Go back'}
          </button>
        </div>
      </form>
    </dialog>
  );
}
