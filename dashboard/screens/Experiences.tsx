import type { JSX } from 'preact';
import { Select } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { money, plural } from '../format.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import '../styles/experiences.css';
import { RetryAlert } from '../components/RetryAlert.js';

const SHOW = [
  ['', 'All'],
  ['true', 'Active'],
  ['false', 'Inactive'],
] as const;

/** `2 h 30 min` from minutes. */
export function durationText(minutes: number): string {
  const h = Math.floor(minutes / 60);
  const min = minutes % 60;
  return [h ? `${h} h` : '', min ? `${min} min` : ''].filter(Boolean).join(' ');
}

export function Experiences({ m }: { m: Model }): JSX.Element {
  const { page, loading, error } = m.experiences.list.value;
  const search = m.router.location.value.search;
  const active = search.get('active') ?? '';
  const href = (offset: number) => `${pathTo('experiences')}?${new URLSearchParams({ ...(active ? { active } : {}), offset: String(offset) }).toString()}`;
  return (
    <main id="main" class="experiences">
      <div class="heading-row">
        <h1 id="heading" tabIndex={-1}>
          Experiences
        </h1>
      </div>
      <div class="toolbar">
        <a class="button primary" href={pathTo('experiences', 'new')}>
          New experience
        </a>
        <Select
          name="show"
          label="Show"
          inline
          value={active}
          options={SHOW}
          // A new address, so Back returns to the previous filter.
          onChange={(v) => m.router.setQuery({ active: v })}
        />
      </div>
      <p class="status-line" role="status">
        {loading ? 'Loading experiences…' : page ? plural(page.pagination.total, 'experience', 'experiences') : ''}
      </p>
      <RetryAlert error={error} onRetry={() => m.experiences.retry()} />
      {page && !page.data.length ? (
        <div class="empty">
          <h2>{active ? `No ${active === 'true' ? 'active' : 'inactive'} experiences` : 'No experiences yet'}</h2>
          <p>Create one with “New experience”: give it a name, a price and its weekly times, and guests can book it in the widget.</p>
        </div>
      ) : null}
      {page?.data.length ? (
        <ul class="experience-list">
          {page.data.map((x) => (
            <li key={x.id} class={x.active ? 'active' : 'inactive'}>
              <a href={pathTo('experiences', x.id)} class="name">
                {x.name}
              </a>
              <span class={x.active ? 'exp-state active' : 'exp-state'}>{x.active ? 'Active' : 'Inactive'}</span>
              <dl class="facts">
                <div>
                  <dt>Duration</dt>
                  <dd>{durationText(x.duration)}</dd>
                </div>
                <div>
                  <dt>Price</dt>
                  <dd>{money((x.price / 100).toFixed(2), x.currency)}</dd>
                </div>
                <div>
                  <dt>Maximum participants</dt>
                  <dd>{x.maxParticipants}</dd>
                </div>
                <div>
                  <dt>Time zone</dt>
                  <dd>{x.schedule?.timezone ?? (x.schedule ? 'The organization’s' : 'No schedule')}</dd>
                </div>
              </dl>
            </li>
          ))}
        </ul>
      ) : null}
      {page ? <Pager pagination={page.pagination} href={href} label="Experience pages" /> : null}
    </main>
  );
}
