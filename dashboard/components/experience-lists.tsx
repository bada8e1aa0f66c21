/**
 * The booking form of an experience: the questions guests answer when they book and the extras
 * sold beside the tickets (docs/booking-form.md). Rows live in the editor's draft, like the price
 * categories: each keeps the saved entry it edits, so a save sends its id back and bookings keep
 * pointing at it; a row without one is new.
 */
import type { JSX } from 'preact';
import { QUESTION_TYPES, type QuestionType } from '../../shared/index.js';
import { extraField, questionField, type ExtraRow, type QuestionRow } from '../state/experiences.js';
import type { Model } from '../state/model.js';
import { CheckField, EntryList, FieldError, PriceInput, TextBox, TextInput } from './experience-fields.js';

/** The seven kinds of question, as the editor names them. */
export const QUESTION_TYPE_WORDS: Record<QuestionType, string> = {
  TEXT: 'Short text',
  LONG_TEXT: 'Long text',
  SELECT: 'Choice from a list',
  CHECKBOX: 'Checkbox (yes or no)',
  NUMBER: 'Number',
  DATE: 'Date',
  PHONE: 'Phone number',
};

const MAX_ENTRIES = 20;

/** A labelled select whose error sits next to it, as the editor's other fields do. */
function Select(p: {
  id: string;
  label: string;
  error: string | undefined;
  hint?: string;
  /** Set: the select shows this value on every render (the draft holds it); else the options say which one starts selected. */
  value?: string;
  onChange?: (value: string) => void;
  options: readonly (readonly [string, string, boolean])[];
}): JSX.Element {
  const described = [p.hint ? `${p.id}-hint` : '', p.error ? `${p.id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field${p.error ? ' invalid' : ''}`}>
      <label for={p.id}>{p.label}</label>
      {p.hint ? (
        <p class="hint" id={`${p.id}-hint`}>
          {p.hint}
        </p>
      ) : null}
      <select
        id={p.id}
        name={p.id}
        aria-invalid={p.error ? 'true' : undefined}
        aria-describedby={described}
        value={p.value}
        onChange={p.onChange ? (e) => p.onChange!((e.currentTarget as HTMLSelectElement).value) : undefined}
      >
        {p.options.map(([value, words, selected]) => (
          <option key={value} value={value} selected={selected}>
            {words}
          </option>
        ))}
      </select>
      <FieldError id={p.id} error={p.error} />
    </div>
  );
}

function QuestionEntry({ m, row, index }: { m: Model; row: QuestionRow; index: number }): JSX.Element {
  const fields = m.experiences.form.value.fields;
  const id = (f: string) => questionField(row.key, f);
  const saved = row.saved;
  return (
    <fieldset class="exp-category">
      <legend>Question {index + 1}</legend>
      <TextInput name={id('label')} label="Question" value={saved?.label ?? ''} error={fields[id('label')]} hint="What guests are asked, such as “Any food allergies?”." />
      <Select
        id={id('type')}
        label="Type"
        error={fields[id('type')]}
        value={row.type}
        onChange={(v) => m.experiences.editor.setQuestionType(row.key, v as QuestionType)}
        options={QUESTION_TYPES.map((t) => [t, QUESTION_TYPE_WORDS[t], t === row.type] as const)}
      />
      {row.type === 'SELECT' ? (
        <TextBox
          name={id('options')}
          label="Options"
          rows={4}
          value={(saved?.options ?? []).join('\n')}
          error={fields[id('options')]}
          hint="The choices guests pick from, one per line (up to 50)."
        />
      ) : null}
      <CheckField
        name={id('required')}
        label="Required"
        checked={saved?.required ?? false}
        error={fields[id('required')]}
        hint={row.type === 'CHECKBOX' ? 'A required checkbox must be ticked to book, as for a waiver.' : 'Guests cannot book without answering.'}
      />
      <TextInput name={id('help')} label="Help" value={saved?.help ?? ''} error={fields[id('help')]} hint="Optional: shown under the field. Up to 300 characters." />
      <button type="button" onClick={() => m.experiences.editor.removeQuestion(row.key)}>
        Remove question {index + 1}
      </button>
    </fieldset>
  );
}

function ExtraEntry({ m, row, index, currency }: { m: Model; row: ExtraRow; index: number; currency: string | undefined }): JSX.Element {
  const fields = m.experiences.form.value.fields;
  const id = (f: string) => extraField(row.key, f);
  const saved = row.saved;
  const per = saved?.per ?? 'BOOKING';
  return (
    <fieldset class="exp-category">
      <legend>Extra {index + 1}</legend>
      <TextInput name={id('name')} label="Name" value={saved?.name ?? ''} error={fields[id('name')]} hint="As guests see it, such as Lunch or Photos." />
      <TextBox name={id('description')} label="Description" rows={2} value={saved?.description ?? ''} error={fields[id('description')]} hint="Optional. Up to 300 characters." />
      <div class="exp-pair">
        <PriceInput name={id('price')} cents={saved?.price} error={fields[id('price')]} per="unit" currency={currency} />
        <Select
          id={id('per')}
          label="Counted"
          error={fields[id('per')]}
          hint="Per person: at most one for each participant."
          options={[
            ['BOOKING', 'Per booking', per === 'BOOKING'],
            ['PERSON', 'Per person', per === 'PERSON'],
          ]}
        />
      </div>
      <div class="exp-pair">
        <TextInput
          name={id('maxQuantity')}
          label="Maximum"
          type="number"
          min={1}
          max={99}
          value={String(saved?.maxQuantity ?? 10)}
          error={fields[id('maxQuantity')]}
          hint="The most one booking may take (1–99)."
        />
        <CheckField name={id('active')} label="Active" checked={saved?.active ?? true} error={fields[id('active')]} hint="Inactive extras are kept but not offered." />
      </div>
      <button type="button" onClick={() => m.experiences.editor.removeExtra(row.key)}>
        Remove extra {index + 1}
      </button>
    </fieldset>
  );
}

/** The questions guests answer when they book. Removing one stops asking it; bookings keep their answers. */
export function Questions({ m }: { m: Model }): JSX.Element {
  const rows = m.experiences.draft.value.questions;
  return (
    <EntryList
      list="questions"
      one="question"
      title="Questions"
      hint={
        rows.length
          ? 'Asked in the widget and in the New booking form, in this order. Bookings keep their answers when a question changes or goes.'
          : 'None: guests are asked only for their name and e-mail. Add a question for allergies, sizes, a pickup point or a waiver.'
      }
      entries={rows.map((r, i) => <QuestionEntry key={r.key} m={m} row={r} index={i} />)}
      max={MAX_ENTRIES}
      error={m.experiences.form.value.fields['add-question']}
      onAdd={() => m.experiences.editor.addQuestion()}
    />
  );
}

/** The extras sold beside the tickets; they take no places. Removing one stops offering it; bookings keep theirs. */
export function Extras({ m, currency }: { m: Model; currency: string | undefined }): JSX.Element {
  const rows = m.experiences.draft.value.extras;
  return (
    <EntryList
      list="extras"
      one="extra"
      title="Extras"
      hint={
        rows.length
          ? 'Offered with a quantity beside the tickets; they take no places. Bookings keep the name and price they were booked at.'
          : 'None. Add extras to sell lunch, photos or gear with the booking.'
      }
      entries={rows.map((r, i) => <ExtraEntry key={r.key} m={m} row={r} index={i} currency={currency} />)}
      max={MAX_ENTRIES}
      error={m.experiences.form.value.fields['add-extra']}
      onAdd={() => m.experiences.editor.addExtra()}
    />
  );
}
