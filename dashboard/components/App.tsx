import type { JSX } from 'preact';
import { ComingSoon, comingSoonTitle } from '../screens/ComingSoon.js';
import { SetPassword } from '../screens/SetPassword.js';
import { SignIn } from '../screens/SignIn.js';
import { Today } from '../screens/Today.js';
import type { Model } from '../state/model.js';
import { Layout } from './Layout.js';

/** The page title of what is on screen: it is the first thing a screen reader says after a move. */
export function titleOf(m: Model): string {
  const { screen } = m.router.location.value;
  if (screen === 'setup') return 'Set password';
  if (m.checking.value) return 'Loading';
  if (!m.session.value) return 'Sign in';
  return screen === 'today' ? 'Today' : comingSoonTitle(screen);
}

export function App({ m }: { m: Model }): JSX.Element {
  const { screen } = m.router.location.value;
  if (screen === 'setup') return <SetPassword m={m} />;
  if (m.checking.value) {
    return (
      <main id="main" class="auth">
        <p role="status">Loading…</p>
      </main>
    );
  }
  // Until the router has moved a signed-out visitor to the sign-in address.
  if (!m.session.value) return <SignIn m={m} />;
  return <Layout m={m}>{screen === 'today' ? <Today m={m} /> : <ComingSoon screen={screen} />}</Layout>;
}
