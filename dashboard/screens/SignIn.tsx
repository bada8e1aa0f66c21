import type { JSX } from 'preact';
import { Field, valuesOf } from '../components/Field.js';
import type { Model } from '../state/model.js';

export function SignIn({ m }: { m: Model }): JSX.Element {
  const form = m.signInForm.value;
  const notice = m.notice.value;
  const submit = (e: Event) => {
    const value = valuesOf(e);
    void m.signIn(value('email'), value('password'));
  };
  return (
    <main id="main" class="auth">
      <h1 id="heading" tabIndex={-1}>
        Sign in
      </h1>
      <p class="lede">Outing’s dashboard, for the people who run the tours.</p>
      {notice ? <p class="notice">{notice}</p> : null}
      {form.error ? (
        <p class="alert" role="alert">
          {form.error}
        </p>
      ) : null}
      <form class="card" noValidate onSubmit={submit} aria-busy={form.busy ? 'true' : undefined}>
        <Field name="email" label="Email" type="email" autoComplete="username" error={form.fields['email']} />
        <Field name="password" label="Password" type="password" autoComplete="current-password" error={form.fields['password']} />
        <button class="primary" type="submit" aria-disabled={form.busy ? 'true' : undefined}>
          {form.busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
      <p class="hint">
        Forgotten your password? An owner can send you a new setup link (<code>outing users reset --email …</code>).
      </p>
    </main>
  );
}
