/** Settings › API keys: the organization's keys, a new one (shown once), revoking one. */
import type { JSX } from 'preact';
import { SCOPES } from '../../shared/index.js';
import { Field, Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { Card, Cards, Choices, CreateForm, Fact, When, zoneOf } from './settings-parts.js';

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
            facts={
              <>
                <Fact t="Type">{k.type === 'secret' ? 'Secret' : 'Publishable'}</Fact>
                <Fact t="Prefix">
                  <code>{k.prefix}</code>
                </Fact>
                <Fact t="Scopes">{k.scopes.includes('*') ? 'All' : k.scopes.join(', ')}</Fact>
                <Fact t="Created">
                  <When m={m} at={k.createdAt} />
                </Fact>
                <Fact t="Last used">
                  <When m={m} at={k.lastUsedAt} />
                </Fact>
                <Fact t="Revoked">
                  <When m={m} at={k.revokedAt} none="No" />
                </Fact>
              </>
            }
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
        <Field idPrefix="key-" name="name" label="Name" type="text" hint="What will use it, such as “Website sync”." error={f.fields['name']} />
        <Select idPrefix="key-" name="type" label="Type" options={TYPES} error={f.fields['type']} />
        <Choices
          prefix="key-"
          name="scopes"
          legend="Scopes"
          hint="What a secret key may do. Tick none for everything; publishable keys take none."
          options={SCOPES}
          error={f.fields['scopes']}
        />
      </CreateForm>
    </>
  );
}
