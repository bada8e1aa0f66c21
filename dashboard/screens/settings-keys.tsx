/**
 * Settings › API keys: the organization's keys, a new one, revoking one. A secret key is shown once,
 * when made; a publishable key (public by design, it is in every page with the widget) is listed
 * whole, with "Copy".
 */
import type { JSX } from 'preact';
import { SCOPES, type ApiKey } from '../../shared/index.js';
import { CopyField } from '../components/CopyButton.js';
import { Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { RESELLER, isResellerKey, scopeWords } from '../state/octo.js';
import { Card, Cards, Choices, CreateForm, fieldOf, when, zoneOf } from './settings-parts.js';

const TYPES = [
  ['secret', 'Secret: for your servers, on /v1'],
  ['publishable', 'Publishable: for web pages, the widget'],
  [RESELLER, 'Reseller (OCTO): for a reseller’s booking system'],
] as const;

/** What a key's card says of its value, unless the card shows it whole (a publishable key's). */
function keyFact(k: ApiKey): readonly [string, JSX.Element] | null {
  if (k.type === 'secret') return ['Prefix', <code>{k.prefix}</code>];
  if (k.key && !k.revokedAt) return null;
  if (k.key) return ['Key', <code>{k.key}</code>];
  return ['Key', <>Made before Outing kept publishable keys, so only its start is known: <code>{k.prefix}</code>. Create a new publishable key to copy one whole.</>];
}

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
            title={
              isResellerKey(k) ? (
                <>
                  {k.name} <span class="tag">Reseller</span>
                </>
              ) : (
                k.name
              )
            }
            off={k.revokedAt}
            body={k.key && !k.revokedAt ? <CopyField id={`key-value-${k.id}`} label={`Publishable key “${k.name}”`} value={k.key} /> : null}
            facts={[
              ['Type', isResellerKey(k) ? 'Secret, for a reseller on the OCTO API' : k.type === 'secret' ? 'Secret' : 'Publishable'],
              keyFact(k),
              ['Scopes', k.scopes.includes('*') ? 'All' : k.scopes.map(scopeWords).join(', ')],
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
        <Select idPrefix="key-" name="type" label="Type" options={TYPES} error={f.fields['type']} hint="A reseller key lets a reseller book your tours over the OCTO standard; it reaches nothing else." />
        <Choices prefix="key-" name="scopes" legend="Scopes" hint="What a secret key may do: none ticked is everything. Publishable keys take none; a reseller key holds only “Reseller bookings (OCTO)”." options={SCOPES} labelOf={scopeWords} error={f.fields['scopes']} />
      </CreateForm>
    </>
  );
}
