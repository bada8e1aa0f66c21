import type { ComponentChildren, JSX } from 'preact';
import { BASE, type Screen } from '../router.js';
import type { Model } from '../state/model.js';

/** `also`: the record screens under a list, so the list's link stays current on a record's page. */
const NAV: { screen: Screen; also?: Screen; label: string; path: string }[] = [
  { screen: 'today', label: 'Today', path: BASE },
  { screen: 'bookings', also: 'booking', label: 'Bookings', path: `${BASE}/bookings` },
  { screen: 'calendar', label: 'Calendar', path: `${BASE}/calendar` },
  { screen: 'experiences', also: 'experience', label: 'Experiences', path: `${BASE}/experiences` },
  { screen: 'customers', also: 'customer', label: 'Customers', path: `${BASE}/customers` },
  { screen: 'insights', label: 'Insights', path: `${BASE}/insights` },
  { screen: 'settings', label: 'Settings', path: `${BASE}/settings` },
];

/** The frame of every signed-in screen: who and where, the navigation, and signing out. */
export function Layout({ m, children }: { m: Model; children: ComponentChildren }): JSX.Element {
  const session = m.session.value!;
  const screen = m.router.location.value.screen;
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <p class="org">
          <span class="brand">Outing</span> {session.organization.name}
        </p>
        <nav aria-label="Dashboard">
          <ul>
            {NAV.filter((n) => m.mayOpen(n.screen)).map((n) => (
              <li key={n.screen}>
                <a href={n.path} aria-current={n.screen === screen || n.also === screen ? 'page' : undefined}>
                  {n.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="me">
          <span class="user">{session.user.name || session.user.email}</span>
          <button type="button" onClick={() => void m.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      {children}
    </>
  );
}
