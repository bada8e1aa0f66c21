/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
// In this order the bundle compresses best (measured: 24 bytes less).
import { Tickets } from './Tickets.js';
import { Confirmation } from './Confirmation.js';
import { h } from 'preact';
import { fill } from '../i18n/format.js';
import { chunk } from '../chunks.js';
import { Alerts } from './Alerts.js';
import { CalendarStep } from './CalendarStep.js';
import { ExperienceList } from './ExperienceList.js';
import { Stepper } from './Stepper.js';
import { Summary } from './Summary.js';
import { TimesStep } from './TimesStep.js';
import { DetailsStep, Guest } from './DetailsStep.js';
import type { JSX } from 'preact';
import type { Step } from '../state/booking.js';
import type { FormsChunk } from '../forms.js';
import type { Props, Widget } from './widget.js';

/** The booking form's step in forms.js (widget/form/chunk.ts), asked for once an experience with questions or extras is chosen. */
const form = (w: Widget) => chunk<FormsChunk>(w, 'forms')?.form;

const bodies: Record<Step, (props: Props) => JSX.Element | null> = {
  experiences: ExperienceList,
  calendar: CalendarStep,
  times: TimesStep,
  // Nothing until the chunk is here (it is asked for with the experience, so it seldom keeps the guest waiting).
  form: ({ w }) => form(w)?.step(h, w, Tickets, Stepper) as JSX.Element,
  details: DetailsStep,
  done: Confirmation,
};

/**
 * One step at a time under its heading. The mount moves focus to the heading on each step change;
 * the status region says which step this is, once the guest has moved on from the first.
 */
export function App({ w }: Props) {
  const { model, t, locale } = w;
  const step = model.step.value;
  const experience = model.experience.value;
  const payment = model.payment.value;
  const titles: Record<Step, string> = {
    experiences: t.chooseExperience,
    calendar: t.chooseDate,
    times: t.chooseTime,
    form: (model.hasForm.value && form(w)?.title(t)) || '',
    details: t.yourDetails,
    done: payment ? t.returned[payment] : model.booking.value?.checkoutUrl ? t.paymentDue : t.confirmed,
  };
  const position = fill(t.step, model.steps.value.indexOf(step) + 1, model.steps.value.length);
  const Body = bodies[step];
  // A full time (of an experience with a waitlist): its details and done steps (the two steps whose
  // names start with d) are the waitlist chunk's, a heading and a body (widget/waitlist/chunk.ts),
  // lent widget.js's party control, summary and guest fields; nothing until the chunk is here.
  const [title, body] =
    step[0] == 'd' && model.slot.value?.available === false
      ? (chunk<FormsChunk>(w, 'forms')?.waitlist(h, w, Tickets, Summary, Guest) ?? [''])
      : [titles[step], <Body w={w} />];
  return (
    <div class="outing" lang={locale} role="region" aria-label={t.widget}>
      <p class="sr-only" role="status">
        {model.moved.value ? `${position}: ${title}` : ''}
      </p>
      {/* The experience's name above the heading, until the summary card names it (details, done). */}
      {experience && step !== 'experiences' && step[0] != 'd' && <p class="eyebrow">{experience.name}</p>}
      <p class="position">{position}</p>
      <h2 id="heading" tabIndex={-1}>
        {title}
      </h2>
      <Alerts w={w} />
      <div aria-busy={model.busy.value || (payment === 'wait' && !model.trouble.value)}>
        {body}
      </div>
      {model.canGoBack.value && (
        <button type="button" class="link" onClick={model.back}>
          {t.back}
        </button>
      )}
    </div>
  );
}
