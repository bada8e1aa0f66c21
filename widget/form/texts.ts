/**
 * The words of the booking form's step (widget/form/chunk.ts). English travels with the chunk, not
 * in widget.js's catalog: widget.js must stay small, and only an experience with questions or
 * extras needs them. Every other language has them as `form` in its language file
 * (widget/i18n/pt.json…), which the widget has fetched already for a guest who reads it, so the
 * chunk carries one language only. `{0}` is a question's label or an extra's name.
 */
export interface FormTexts {
  title: string;
  extras: string;
  questions: string;
  perPerson: string;
  required: string;
  choose: string;
  fewer: string;
  more: string;
  continue: string;
  /** What a problem beside a field says (widget/state/state.ts formProblems). */
  problems: Record<Problem, string>;
}

/** A required question unanswered, a required checkbox unticked, a value refused, an extra refused. */
export type Problem = 'required' | 'tick' | 'invalid' | 'extra';

export const en: FormTexts = {
  title: 'Extras and questions',
  extras: 'Extras',
  questions: 'Questions',
  perPerson: 'per person',
  required: '(required)',
  choose: 'Choose…',
  fewer: '{0}: one fewer',
  more: '{0}: one more',
  continue: 'Continue',
  problems: {
    required: 'Answer “{0}”',
    tick: 'Tick “{0}” to continue',
    invalid: 'Check your answer to “{0}”',
    extra: 'Choose fewer of “{0}”',
  },
};

/**
 * The texts in the widget's language: its language file's, else English. Typed by the one key it reads, not
 * Messages: i18n/messages.ts names this file's interface, and importing it back would be a cycle.
 */
export const formTexts = (t: { form?: FormTexts }): FormTexts => t.form ?? en;
