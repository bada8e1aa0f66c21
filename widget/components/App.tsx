/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';
import type { JSX } from 'preact';
import { fill } from '../i18n/format.js';
import type { Step } from '../state/booking.js';
import { Alerts } from './Alerts.js';
import { CalendarStep } from './CalendarStep.js';
import { Confirmation } from './Confirmation.js';
import { DetailsStep } from './DetailsStep.js';
import { ExperienceList } from './ExperienceList.js';
import { TimesStep } from './TimesStep.js';
import type { Props } from './widget.js';

const bodies: Record<Step, (props: Props) => JSX.Element | null> = {
  experiences: ExperienceList,
  calendar: CalendarStep,
  times: TimesStep,
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
    details: t.yourDetails,
    done: payment ? t.returned[payment] : model.booking.value?.checkoutUrl ? t.paymentDue : t.confirmed,
  };
  const position = fill(t.step, model.steps.indexOf(step) + 1, model.steps.length);
  const Body = bodies[step];
  return (
    <div class="outing" lang={locale} role="region" aria-label={t.widget}>
      <p class="sr-only" role="status">
        {model.moved.value ? `${position}: ${titles[step]}` : ''}
      </p>
      {experience && step !== 'experiences' && <p class="eyebrow">{experience.name}</p>}
      <p class="position">{position}</p>
      <h2 id="heading" tabIndex={-1}>
        {titles[step]}
      </h2>
      <Alerts w={w} />
      <div aria-busy={model.busy.value || (payment === 'wait' && !model.trouble.value)}>
        <Body w={w} />
      </div>
      {model.canGoBack.value && (
        <button type="button" class="link" onClick={model.back}>
          {t.back}
        </button>
      )}
    </div>
  );
}
