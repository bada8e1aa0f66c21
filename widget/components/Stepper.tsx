/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';

interface StepperProps {
  /** The input's id, which its label names. */
  id: string;
  value: number;
  min: number;
  max: number;
  fewer: string;
  more: string;
  set: (n: number) => void;
  /** Ids of texts that describe the input (a category's ages, the note about places). */
  describedBy?: string | undefined;
  /** The id of a note saying why "+" cannot add, when it cannot. */
  note?: string | undefined;
}

/**
 * A number input between "−" and "+" buttons. The buttons stay focusable at the ends
 * (aria-disabled, not disabled): focus does not drop to the page when the limit is reached.
 * What the guest types counts at once, as they type (the total follows it).
 */
export function Stepper({ id, value, min, max, fewer, more, set, describedBy, note }: StepperProps) {
  const stepButton = (by: number, label: string, enabled: boolean, sign: string, reason?: string) => (
    <button type="button" class="icon" aria-label={label} aria-disabled={!enabled} aria-describedby={reason} onClick={() => set(value + by)}>
      <span aria-hidden="true">{sign}</span>
    </button>
  );
  return (
    <div class="stepper">
      {stepButton(-1, fewer, value > min, '−')}
      <input
        id={id}
        type="number"
        inputMode="numeric"
        min={min}
        max={max}
        value={value}
        aria-describedby={describedBy}
        onInput={(e) => {
          const input = e.currentTarget;
          // An emptied field waits for the next digit (leaving it puts the number back). A number
          // past a limit becomes the limit in the field at once; the note beside it says why.
          if (input.value) {
            const n = Math.max(min, Math.min(Math.floor(+input.value) || 0, max));
            input.value = '' + n;
            set(n);
          }
        }}
        onBlur={(e) => (e.currentTarget.value = '' + value)}
      />
      {stepButton(1, more, value < max, '+', value < max ? undefined : note)}
    </div>
  );
}
