import type { JSX } from 'preact';
import { NotFound } from '../screens/NotFound.js';
import { SetPassword } from '../screens/SetPassword.js';
import { SignIn } from '../screens/SignIn.js';
import { TITLES } from '../screens/titles.js';
import { Today } from '../screens/Today.js';
import type { Model } from '../state/model.js';
import { signal } from '../state/signals.js';
import { Layout } from './Layout.js';

type Views = typeof import('../screens/lazy.js').VIEWS;

/** The screens past Today, once their chunk has loaded; why it could not, when it could not. */
const views = signal<Views | null>(null);
const viewsError = signal(false);
let loading: Promise<void> | null = null;

/**
 * Loads the other screens' chunk, once. A failure (a lost connection, or a new build whose files have
 * other names) is said on screen: a browser keeps a failed module failed, so the way on is a reload.
 */
function loadViews(): void {
  loading ??= import('../screens/lazy.js').then(
    (chunk) => void (views.value = chunk.VIEWS),
    () => void (viewsError.value = true),
  );
}

/** The page title of what is on screen: it is the first thing a screen reader says after a move. */
export function titleOf(m: Model): string {
  const { screen } = m.router.location.value;
  if (screen === 'setup') return 'Set password';
  if (m.checking.value) return 'Loading';
  if (!m.session.value) return 'Sign in';
  if (!m.mayOpen(screen)) return 'Not available to your role';
  return TITLES[screen]?.(m) ?? 'Page not found';
}

/** While a screen's code loads: no heading yet, so focus moves to the screen's own when it comes. */
function Waiting(): JSX.Element {
  if (!viewsError.value) {
    return (
      <main id="main">
        <p role="status">Loading…</p>
      </main>
    );
  }
  return (
    <main id="main">
      <div class="alert" role="alert">
        <p>This screen could not be loaded: the connection may have dropped, or Outing may have just been updated.</p>
        <button type="button" onClick={() => location.reload()}>
          Reload the page
        </button>
      </div>
    </main>
  );
}

function SignedIn({ m }: { m: Model }): JSX.Element {
  const { screen } = m.router.location.value;
  if (!m.mayOpen(screen)) return <NotFound forbidden />;
  if (screen === 'today') return <Today m={m} />;
  if (!TITLES[screen]) return <NotFound />;
  const View = views.value?.[screen];
  if (View) return <View m={m} />;
  loadViews();
  return <Waiting />;
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
  return (
    <Layout m={m}>
      <SignedIn m={m} />
    </Layout>
  );
}
