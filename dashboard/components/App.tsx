import type { JSX } from 'preact';
import type { Screen } from '../router.js';
import { Booking, titleBooking } from '../screens/Booking.js';
import { Bookings, titleBookings } from '../screens/Bookings.js';
import { Calendar, titleCalendar } from '../screens/Calendar.js';
import { Customer, titleCustomer } from '../screens/Customer.js';
import { Customers, titleCustomers } from '../screens/Customers.js';
import { Experience, titleExperience } from '../screens/Experience.js';
import { Experiences, titleExperiences } from '../screens/Experiences.js';
import { Insights, titleInsights } from '../screens/Insights.js';
import { NotFound } from '../screens/NotFound.js';
import { SetPassword } from '../screens/SetPassword.js';
import { Settings, titleSettings } from '../screens/Settings.js';
import { SignIn } from '../screens/SignIn.js';
import { Today } from '../screens/Today.js';
import type { Model } from '../state/model.js';
import { Layout } from './Layout.js';

type View = (props: { m: Model }) => JSX.Element;

/** Every signed-in screen: its page title (from the model, so a record's page names the record) and its view. */
const SIGNED_IN: Partial<Record<Screen, [title: (m: Model) => string, view: View]>> = {
  today: [() => 'Today', Today],
  bookings: [titleBookings, Bookings],
  booking: [titleBooking, Booking],
  calendar: [titleCalendar, Calendar],
  experiences: [titleExperiences, Experiences],
  experience: [titleExperience, Experience],
  customers: [titleCustomers, Customers],
  customer: [titleCustomer, Customer],
  insights: [titleInsights, Insights],
  settings: [titleSettings, Settings],
};

/** The page title of what is on screen: it is the first thing a screen reader says after a move. */
export function titleOf(m: Model): string {
  const { screen } = m.router.location.value;
  if (screen === 'setup') return 'Set password';
  if (m.checking.value) return 'Loading';
  if (!m.session.value) return 'Sign in';
  if (!m.mayOpen(screen)) return 'Not available to your role';
  return SIGNED_IN[screen]?.[0](m) ?? 'Page not found';
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
  const View = SIGNED_IN[screen]?.[1];
  return <Layout m={m}>{!m.mayOpen(screen) ? <NotFound forbidden /> : View ? <View m={m} /> : <NotFound />}</Layout>;
}
