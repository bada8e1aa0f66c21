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
        onChange={(e) => set(Number(e.currentTarget.value))}
      />
      {stepButton(1, more, value < max, '+', value < max ? undefined : note)}
    </div>
  );
}
