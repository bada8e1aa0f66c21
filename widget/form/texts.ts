/**
 * The words of the booking form's step, in every language the widget speaks. They travel with the
 * chunk that shows them (widget/form/chunk.ts), not in widget.js's catalog: widget.js must stay
 * small, and only an experience with questions or extras needs them. `{0}` is a question's label
 * or an extra's name.
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

const en: FormTexts = {
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

// European Portuguese, as the rest of the widget speaks it.
const pt: FormTexts = {
  title: 'Extras e perguntas',
  extras: 'Extras',
  questions: 'Perguntas',
  perPerson: 'por pessoa',
  required: '(obrigatório)',
  choose: 'Escolha…',
  fewer: '{0}: menos um',
  more: '{0}: mais um',
  continue: 'Continuar',
  problems: {
    required: 'Responda a «{0}»',
    tick: 'Assinale «{0}» para continuar',
    invalid: 'Verifique a sua resposta a «{0}»',
    extra: 'Escolha menos de «{0}»',
  },
};

const catalogs: Record<string, FormTexts> = { en, pt };

/** The texts of a BCP 47 tag's primary language, English when we have none. */
export function formTexts(tag: string): FormTexts {
  return catalogs[tag.slice(0, 2).toLowerCase()] ?? en;
}
