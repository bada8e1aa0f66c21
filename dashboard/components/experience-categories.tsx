import type { JSX } from 'preact';
import { PRICE_CATEGORY_TYPES, type PriceCategory } from '../../shared/index.js';
import { categoryField } from '../state/experiences.js';
import type { Model } from '../state/model.js';
import { CheckField, EntryList, FieldError, PriceInput, TextInput } from './experience-fields.js';

const TYPE_LABELS: Record<(typeof PRICE_CATEGORY_TYPES)[number], string> = {
  ADULT: 'Adult',
  CHILD: 'Child',
  YOUTH: 'Youth',
  INFANT: 'Infant',
  SENIOR: 'Senior',
  STUDENT: 'Student',
  OTHER: 'Other',
};

const age = (n: number | null | undefined): string => (n === null || n === undefined ? '' : String(n));

function Row({ m, rowKey, saved, index, currency }: { m: Model; rowKey: number; saved: PriceCategory | undefined; index: number; currency: string | undefined }): JSX.Element {
  const fields = m.experiences.form.value.fields;
  const id = (f: string) => categoryField(rowKey, f);
  const type = id('type');
  return (
    <fieldset class="exp-category">
      <legend>Category {index + 1}</legend>
      <div class="exp-pair">
        <TextInput name={id('name')} label="Name" value={saved?.name ?? ''} error={fields[id('name')]} hint="As guests see it, such as Adult or Child." />
        <PriceInput name={id('price')} cents={saved?.price} error={fields[id('price')]} per="ticket" currency={currency} />
      </div>
      <div class="exp-pair">
        <div class={`field${fields[type] ? ' invalid' : ''}`}>
          <label for={type}>Type</label>
          <select id={type} name={type} aria-invalid={fields[type] ? 'true' : undefined} aria-describedby={fields[type] ? `${type}-error` : undefined}>
            {PRICE_CATEGORY_TYPES.map((t) => (
              <option key={t} value={t} selected={(saved?.type ?? 'ADULT') === t}>
                {TYPE_LABELS[t]}
              </option>
            ))}
          </select>
          <FieldError id={type} error={fields[type]} />
        </div>
        <CheckField
          name={id('occupiesPlace')}
          label="Takes a place"
          checked={saved?.occupiesPlace ?? true}
          error={fields[id('occupiesPlace')]}
          hint="Untick for guests who take no place, such as infants on a lap."
        />
      </div>
      <div class="exp-pair">
        <TextInput name={id('minAge')} label="Minimum age" type="number" min={0} max={120} value={age(saved?.minAge)} error={fields[id('minAge')]} hint="Shown to guests; empty for none." />
        <TextInput name={id('maxAge')} label="Maximum age" type="number" min={0} max={120} value={age(saved?.maxAge)} error={fields[id('maxAge')]} hint="Shown to guests; empty for none." />
      </div>
      <button type="button" onClick={() => m.experiences.editor.removeCategory(rowKey)}>
        Remove category {index + 1}
      </button>
    </fieldset>
  );
}

/**
 * The experience's price categories (Adult, Child, Infant, …). None: every guest pays the price
 * above. Removing a category stops new bookings in it; bookings that have it keep it.
 */
export function PriceCategories({ m, currency }: { m: Model; currency: string | undefined }): JSX.Element {
  const rows = m.experiences.draft.value.categories;
  const error = m.experiences.form.value.fields['add-category'];
  return (
    <EntryList
      list="categories"
      one="category"
      title="Price categories"
      hint={
        rows.length
          ? 'Guests choose how many tickets of each category they want; places count the categories that take one.'
          : 'None: every guest pays the price above. Add categories to sell adult, child or infant tickets at their own prices.'
      }
      entries={rows.map((r, i) => <Row key={r.key} m={m} rowKey={r.key} saved={r.saved} index={i} currency={currency} />)}
      max={10}
      error={error}
      onAdd={() => m.experiences.editor.addCategory()}
    />
  );
}
