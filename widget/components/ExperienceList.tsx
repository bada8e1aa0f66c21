/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';
import { fill } from '../i18n/format.js';
import type { Props } from './widget.js';

/** The org's experiences, when the embed names none (README.md, "Embed the widget"). */
export function ExperienceList({ w: { model, t, fmt } }: Props) {
  const list = model.experiences.value;
  if (!list) return null;
  if (!list.length) return <p>{t.noExperiences}</p>;
  return (
    <ul class="cards">
      {list.map((e) => {
        const categories = e.priceCategories;
        // Priced by category: the least a booking can start at, a ticket that takes a place
        // (a free infant on a lap books nothing alone); "from" it when the categories differ.
        const least = Math.min(...categories.filter((c) => c.occupiesPlace).map((c) => c.price));
        const price = isFinite(least) ? least : e.price;
        const shown = fmt.money(price / 100, e.currency);
        return (
          <li key={e.id} class="card">
            <h3>{e.name}</h3>
            <p class="meta">
              {fmt.duration(e.duration)} · {categories.some((c) => c.price !== price) ? fill(t.from, shown) : `${shown} ${t.perPerson}`}
            </p>
            {e.description && <p class="desc">{e.description}</p>}
            {/* The name makes each "Select" distinct out of context; it starts with the visible word. */}
            <button type="button" class="primary" aria-label={`${t.select}: ${e.name}`} onClick={() => model.chooseExperience(e)}>
              {t.select}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
