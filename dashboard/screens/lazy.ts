/**
 * Every signed-in screen but Today, in one chunk that loads the first time one of them opens
 * (components/App.tsx): sign-in and Today, what a guide opens on the day, load less (the budget in
 * dashboard/size-budget.test.ts).
 */
import type { JSX } from 'preact';
import type { Screen } from '../router.js';
import type { Model } from '../state/model.js';
import { Booking } from './Booking.js';
import { Bookings } from './Bookings.js';
import { Calendar } from './Calendar.js';
import { Customer } from './Customer.js';
import { Customers } from './Customers.js';
import { Experience } from './Experience.js';
import { Experiences } from './Experiences.js';
import { Insights } from './Insights.js';
import { Settings } from './Settings.js';

/** What Settings reads for its promo codes and gift vouchers, loaded with these screens. */
export { promoCodesOf, vouchersOf } from '../state/promotions.js';

export const VIEWS: Partial<Record<Screen, (props: { m: Model }) => JSX.Element>> = {
  bookings: Bookings,
  booking: Booking,
  calendar: Calendar,
  experiences: Experiences,
  experience: Experience,
  customers: Customers,
  customer: Customer,
  insights: Insights,
  settings: Settings,
};
