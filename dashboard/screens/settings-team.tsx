/** Settings › Team: who signs in to the dashboard, their roles, inviting, disabling and removing people. */
import type { JSX } from 'preact';
import { Field, Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, CreateForm, Fact, When, zoneOf } from './settings-parts.js';

const ROLES = [
  ['staff', 'Staff: Today, Bookings, Calendar and Customers'],
  ['owner', 'Owner: everything, Settings included'],
] as const;

export function TeamSection({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const f = s.form('invite');
  const me = m.session.value?.user.id;
  const submit = (e: Event) => {
    const v = formOf(e);
    const form = e.currentTarget as HTMLFormElement;
    void s.inviteUser(v.value('name'), v.value('email'), v.value('role')).then((ok) => ok && form.reset());
  };
  return (
    <>
      <p class="quiet">Times in {zoneOf(m)}.</p>
      <Cards items={s.users.value} empty="Nobody else signs in yet. Invite a colleague below.">
        {s.users.value?.map((u) => {
          const id = `user-${u.id}`;
          const wait = busy(m, u.id);
          return (
            <Card
              key={u.id}
              id={id}
              title={u.id === me ? `${u.name} (you)` : u.name}
              facts={
                <>
                  <Fact t="Email">{u.email}</Fact>
                  <Fact t="Role">{u.role === 'owner' ? 'Owner' : 'Staff'}</Fact>
                  <Fact t="Last sign-in">
                    <When m={m} at={u.lastSignInAt} />
                  </Fact>
                  <Fact t="Disabled">
                    <When m={m} at={u.disabledAt} none="No" />
                  </Fact>
                </>
              }
            >
              <button type="button" aria-describedby={id} aria-disabled={wait} onClick={() => void s.setRole(u, u.role === 'owner' ? 'staff' : 'owner')}>
                {u.role === 'owner' ? 'Make staff' : 'Make owner'}
              </button>
              {/* Not on your own card: disabling or removing yourself would end this session mid-sentence. */}
              {u.id === me ? null : (
                <>
                  <button type="button" aria-describedby={id} aria-disabled={wait} onClick={() => void s.setUserDisabled(u, !u.disabledAt)}>
                    {u.disabledAt ? 'Enable' : 'Disable'}
                  </button>
                  <button type="button" id={`delete-${u.id}`} aria-describedby={id} onClick={() => s.deleteUser(u)}>
                    Delete
                  </button>
                </>
              )}
            </Card>
          );
        })}
      </Cards>
      <CreateForm id="new-user" title="Invite someone" state={f} button="Invite" busyButton="Inviting…" onSubmit={submit}>
        <Field idPrefix="invite-" name="name" label="Name" type="text" autoComplete="off" error={f.fields['name']} />
        <Field idPrefix="invite-" name="email" label="Email" type="email" error={f.fields['email']} />
        <Select idPrefix="invite-" name="role" label="Role" options={ROLES} error={f.fields['role']} />
      </CreateForm>
    </>
  );
}
