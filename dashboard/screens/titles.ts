/**
 * Each signed-in screen's page title, read from the model: the first thing a screen reader says
 * after a move. Kept apart from the screens themselves, whose code loads only when first opened
 * (screens/lazy.ts), since the title is needed at once.
 */
import type { Screen } from '../router.js';
import { isErased } from '../state/customers.js';
import type { Model } from '../state/model.js';
import { SECTIONS } from '../state/settings-types.js';

export const titleBooking = (m: Model): string => {
  if (m.router.location.value.id === 'new') return 'New booking';
  const b = m.bookings.page.value.booking;
  return b ? `Booking ${b.bookingNumber}` : 'Booking';
};

export const titleCustomer = (m: Model): string => {
  const c = m.customers.page.value.customer;
  return !c ? 'Customer' : isErased(c) ? 'Erased customer' : c.name;
};

export const titleExperience = (m: Model): string => {
  const { id, experience } = m.experiences.one.value;
  return id === 'new' ? 'New experience' : (experience?.name ?? 'Experience');
};

export const titleSettings = (m: Model): string => {
  const label = SECTIONS.find(([s]) => s === m.settings.view.value.section)?.[1];
  return label ? `${label} · Settings` : 'Settings';
};

/** The title of every signed-in screen; Today's is fixed. */
export const TITLES: Partial<Record<Screen, (m: Model) => string>> = {
  today: () => 'Today',
  bookings: () => 'Bookings',
  booking: titleBooking,
  calendar: () => 'Calendar',
  experiences: () => 'Experiences',
  experience: titleExperience,
  customers: () => 'Customers',
  customer: titleCustomer,
  insights: () => 'Insights',
  settings: titleSettings,
};
