// A booking and the rest of a guest message's input, as the outbox worker will hand them over.
import ICAL from 'ical.js';
import type { BookingView } from '../../store/bookings.js';
import type { GuestMessageInput } from '../compose.js';
import { UNTOUCHED_BOOKING } from '../../test-helpers/fixtures.js';

export const HOST = 'book.example.com';
export const MANAGE_URL = 'https://book.example.com/manage#Zm9vYmFyYmF6cXV4MTIzNDU2Nzg5MGFiY2RlZmdoaWprbG1u';
export const ORGANIZATION = { name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', phone: '+351 210 000 000' };

export function bookingView(overrides: Partial<BookingView> = {}): BookingView {
  return {
    id: 'bkg_01JTESTBOOKING0000000000',
    orgId: 'org_1',
    bookingNumber: 'OUT-7K2M9Q',
    experienceId: 'exp_1',
    customerId: 'cus_1',
    // 10:00–12:00 in Lisbon, where summer time is UTC+1.
    slotStart: Date.parse('2027-07-01T09:00:00Z'),
    slotEnd: Date.parse('2027-07-01T11:00:00Z'),
    status: 'CONFIRMED',
    guestName: 'Eve Adams',
    guestEmail: 'eve@example.com',
    guestPhone: '+351 900 000 000',
    participants: 3,
    unitPrice: 2500,
    currency: 'EUR',
    source: 'WIDGET',
    metadata: '{}',
    ...UNTOUCHED_BOOKING,
    createdAt: Date.parse('2027-06-01T12:00:00Z'),
    updatedAt: Date.parse('2027-06-01T12:00:00Z'),
    experienceName: 'Alfama Walk',
    amountRefunded: 0,
    amountPaid: 0,
    octo: null,
    ...overrides,
  };
}

export const TICKETS = JSON.stringify([
  { categoryId: 'cat_adult', name: 'Adult', type: 'ADULT', quantity: 2, unitPrice: 3000 },
  { categoryId: 'cat_child', name: 'Child', type: 'CHILD', quantity: 1, unitPrice: 1500 },
]);

export function messageInput(overrides: Partial<GuestMessageInput> = {}): GuestMessageInput {
  return {
    kind: 'BOOKING_CONFIRMED',
    locale: 'en',
    booking: bookingView(),
    timeZone: 'Europe/Lisbon',
    organization: ORGANIZATION,
    manageUrl: MANAGE_URL,
    messageId: 'msg_01JTESTMESSAGE000000000',
    host: HOST,
    ...overrides,
  };
}

/** The VEVENTs of an iCalendar text, as a calendar app reads them. */
export function eventsOf(ics: string): ICAL.Component[] {
  return new ICAL.Component(ICAL.parse(ics)).getAllSubcomponents('vevent');
}

export const startOf = (event: ICAL.Component): string =>
  (event.getFirstPropertyValue('dtstart') as ICAL.Time).toJSDate().toISOString();
