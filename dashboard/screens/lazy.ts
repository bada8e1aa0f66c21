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
import { promoCodesOf, vouchersOf } from '../state/promotions.js';
import { providePromotionReads } from '../state/settings-types.js';

// Settings reads promo codes and gift vouchers with code that loads here, never with Today.
providePromotionReads({ promoCodesOf, vouchersOf });

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
