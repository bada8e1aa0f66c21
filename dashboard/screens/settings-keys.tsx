/** Settings › API keys: the organization's keys, a new one (shown once), revoking one. */
import type { JSX } from 'preact';
import { SCOPES } from '../../shared/index.js';
import { Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { Card, Cards, Choices, CreateForm, fieldOf, when, zoneOf } from './settings-parts.js';

const TYPES = [
  ['secret', 'Secret: for your servers, on /v1'],
  ['publishable', 'Publishable: for web pages, the widget'],
] as const;

export function KeysSection({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const f = s.form('key');
  const submit = (e: Event) => {
    const v = formOf(e);
    const form = e.currentTarget as HTMLFormElement;
    void s.createKey(v.value('name'), v.value('type'), v.all('scopes')).then((ok) => ok && form.reset());
  };
  return (
    <>
      <p class="quiet">Keys let programs use Outing’s API. Times in {zoneOf(m)}.</p>
      <Cards items={s.keys.value} empty="No keys yet. Create one below for each program that calls the API.">
        {s.keys.value?.map((k) => (
          <Card
            key={k.id}
            id={`key-${k.id}`}
            title={k.name}
            off={k.revokedAt}
            facts={[
              ['Type', k.type === 'secret' ? 'Secret' : 'Publishable'],
              ['Prefix', <code>{k.prefix}</code>],
              ['Scopes', k.scopes.includes('*') ? 'All' : k.scopes.join(', ')],
              ['Created', when(m, k.createdAt)],
              ['Last used', when(m, k.lastUsedAt)],
              ['Revoked', when(m, k.revokedAt, 'No')],
            ]}
          >
            {k.revokedAt ? null : (
              <button type="button" id={`revoke-${k.id}`} aria-describedby={`key-${k.id}`} onClick={() => s.revokeKey(k)}>
                Revoke
              </button>
            )}
          </Card>
        ))}
      </Cards>
      <CreateForm id="new-key" title="Create a key" state={f} button="Create key" busyButton="Creating…" onSubmit={submit}>
        {fieldOf(f, 'key-')('name', 'Name', { hint: 'What will use it, such as “Website sync”.' })}
        <Select idPrefix="key-" name="type" label="Type" options={TYPES} error={f.fields['type']} />
        <Choices prefix="key-" name="scopes" legend="Scopes" hint="What a secret key may do: none ticked is everything. Publishable keys take none." options={SCOPES} error={f.fields['scopes']} />
      </CreateForm>
    </>
  );
}
