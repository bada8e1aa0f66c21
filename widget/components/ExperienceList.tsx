/**
 * @jsxRuntime classic
 * @jsx h
 * @jsxFrag Fragment
 */
import { h } from 'preact';
import type { Props } from './widget.js';

/** The org's experiences, when the embed names none (README.md, "Embed the widget"). */
export function ExperienceList({ w: { model, t, fmt } }: Props) {
  const list = model.experiences.value;
  if (!list) return null;
  if (!list.length) return <p>{t.noExperiences}</p>;
  return (
    <ul class="cards">
      {list.map((e) => (
        <li key={e.id} class="card">
          <h3>{e.name}</h3>
          <p class="meta">
            {fmt.duration(e.duration)} · {fmt.money(e.price / 100, e.currency)} {t.perPerson}
          </p>
          {e.description && <p class="desc">{e.description}</p>}
          {/* The name makes each "Select" distinct out of context; it starts with the visible word. */}
          <button type="button" class="primary" aria-label={`${t.select}: ${e.name}`} onClick={() => model.chooseExperience(e)}>
            {t.select}
          </button>
        </li>
      ))}
    </ul>
  );
}
