import type { JSX } from 'preact';
import { Field, valuesOf } from '../components/Field.js';
import type { Model } from '../state/model.js';

/** `/dashboard/setup#<token>`: the link `outing init`, `outing users create` and `reset` print. */
export function SetPassword({ m }: { m: Model }): JSX.Element {
  const form = m.setupForm.value;
  const token = m.router.location.value.hash;
  const submit = (e: Event) => {
    const value = valuesOf(e);
    void m.setUpPassword(token, value('password'), value('repeat'));
  };
  return (
    <main id="main" class="auth">
      <h1 id="heading" tabIndex={-1}>
        Set password
      </h1>
      <p class="lede">Choose the password you will sign in with. You are signed in once it is set.</p>
      {form.error ? (
        <p class="alert" role="alert">
          {form.error}
        </p>
      ) : null}
      <form class="card" noValidate onSubmit={submit} aria-busy={form.busy ? 'true' : undefined}>
        <Field
          name="password"
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 10 characters, and not your e-mail address. A long phrase is easiest to remember."
          error={form.fields['password']}
        />
        <Field name="repeat" label="Repeat the new password" type="password" autoComplete="new-password" error={form.fields['repeat']} />
        <button class="primary" type="submit" aria-disabled={form.busy ? 'true' : undefined}>
          {form.busy ? 'Setting password…' : 'Set password'}
        </button>
      </form>
    </main>
  );
}
