/** Settings › Team: who signs in to the dashboard, their roles, inviting, disabling and removing people. */
import type { JSX } from 'preact';
import { Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, CreateForm, fieldOf, when, zoneOf } from './settings-parts.js';

const ROLES = [
  ['staff', 'Staff: Today, Bookings, Calendar and Customers'],
  ['owner', 'Owner: everything, Settings included'],
] as const;

export function TeamSection({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const f = s.form('invite');
  const field = fieldOf(f, 'invite-');
  const me = m.session.value?.user.id;
  // The server keeps one active owner at least: the last one can be neither made staff, nor disabled, nor deleted.
  const owners = s.users.value?.filter((u) => u.role === 'owner' && !u.disabledAt).length ?? 0;
  const submit = (e: Event) => {
    const v = formOf(e);
    const form = e.currentTarget as HTMLFormElement;
    void s.inviteUser(v.value('name'), v.value('email'), v.value('role')).then((ok) => ok && form.reset());
  };
  return (
    <>
      <p class="quiet">Times in {zoneOf(m)}.</p>
      <Cards items={s.users.value} empty="Nobody signs in yet. Invite someone below.">
        {s.users.value?.map((u) => {
          const id = `user-${u.id}`;
          const b = { type: 'button', 'aria-describedby': id, 'aria-disabled': busy(m, u.id) } as const;
          const last = u.role === 'owner' && !u.disabledAt && owners <= 1;
          return (
            <Card
              key={u.id}
              id={id}
              title={u.id === me ? `${u.name} (you)` : u.name}
              off={u.disabledAt}
              facts={[
                ['Email', u.email],
                ['Role', u.role === 'owner' ? 'Owner' : 'Staff'],
                ['Last sign-in', when(m, u.lastSignInAt)],
                ['Disabled', when(m, u.disabledAt, 'No')],
              ]}
            >
              {last ? (
                <p class="hint">
                  The only active owner: make someone else an owner before changing {u.id === me ? 'your' : 'this'} role.
                </p>
              ) : (
                <button {...b} onClick={() => void s.changeUser(u, { role: u.role === 'owner' ? 'staff' : 'owner' })}>
                  {u.role === 'owner' ? 'Make staff' : 'Make owner'}
                </button>
              )}
              {/* Not on your own card: disabling or deleting yourself would end this session mid-task. */}
              {u.id === me || last ? null : (
                <>
                  <button {...b} onClick={() => void s.changeUser(u, { disabled: !u.disabledAt })}>
                    {u.disabledAt ? 'Enable' : 'Disable'}
                  </button>
                  <button {...b} id={`delete-${u.id}`} onClick={() => s.deleteUser(u)}>
                    Delete
                  </button>
                </>
              )}
            </Card>
          );
        })}
      </Cards>
      <CreateForm id="new-user" title="Invite someone" state={f} button="Invite" busyButton="Inviting…" onSubmit={submit}>
        {field('name', 'Name')}
        {field('email', 'Email', { type: 'email' })}
        <Select idPrefix="invite-" name="role" label="Role" options={ROLES} error={f.fields['role']} />
      </CreateForm>
    </>
  );
}
