/**
 * A stand-in for /public/v1/manage at the network boundary (`fetch`), for the manage page's
 * component tests: one booking of the Alfama walk in Lisbon (UTC in December), slots every day at
 * 09:00 and 14:00, the rules as flags the test sets.
 */
import type { ManagedBooking, TimeSlotAvailability } from '../../shared/index.js';

export const TOKEN = 'tok_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789';

export interface RecordedCall {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body: unknown;
  referrerPolicy: ReferrerPolicy | undefined;
  credentials: RequestCredentials | undefined;
}

type Failure = 'network' | { status: number; code: string };

function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

const refuse = (status: number, code: string) => json(status, { success: false, error: { code, message: code } });

const slotId = (startTime: string) => `ts_walk_${new Date(startTime).getTime()}`;

export function managedBooking(overrides: Partial<ManagedBooking> = {}): ManagedBooking {
  const startTime = '2026-12-05T09:00:00.000Z';
  return {
    booking: {
      bookingNumber: 'BK-7QX2M4',
      status: 'CONFIRMED',
      experience: { id: 'exp_walk', title: 'Alfama at Dawn' },
      timeSlot: { id: slotId(startTime), startTime, endTime: '2026-12-05T11:00:00.000Z' },
      totalParticipants: 2,
      tickets: [],
      answers: [],
      extras: [],
      subtotal: '50.00',
      discount: null,
      voucher: null,
      total: '50.00',
      amountDue: '50.00',
      currency: 'EUR',
      guestName: 'Ana Lima',
      guestEmail: 'ana@example.com',
      guestPhone: '+351 911 111 111',
      checkoutUrl: null,
      holdExpiresAt: null,
    },
    locale: 'en',
    timezone: 'Europe/Lisbon',
    canCancel: true,
    canReschedule: true,
    canChangeParty: true,
    canEditContact: true,
    cutoffAt: '2026-12-04T09:00:00.000Z',
    reason: null,
    organization: { name: 'Lisbon Walks', email: 'hello@lisbonwalks.test', phone: '+351 912 345 678', brandColor: null, logoUrl: null },
    guestInfo: { meetingPoint: null, meetingPointUrl: null, guestInstructions: null },
    ...overrides,
  };
}

export function fakeManage(initial: ManagedBooking = managedBooking()) {
  let state = structuredClone(initial);
  const calls: RecordedCall[] = [];
  const failures: { match: string; failure: Failure }[] = [];
  /** Slots (by start time) with no room for the booking. */
  const full = new Set<string>();

  function slots(startDate: string, endDate: string): TimeSlotAvailability[] {
    const list: TimeSlotAvailability[] = [];
    for (let day = new Date(`${startDate}T00:00:00Z`); day <= new Date(`${endDate}T00:00:00Z`); day.setUTCDate(day.getUTCDate() + 1)) {
      for (const hour of [9, 14]) {
        const start = new Date(day.getTime() + hour * 3_600_000);
        if (start.getTime() <= Date.now()) continue;
        const startTime = start.toISOString();
        const room = !full.has(startTime);
        list.push({
          id: slotId(startTime),
          startTime,
          endTime: new Date(start.getTime() + 7_200_000).toISOString(),
          capacity: 8,
          booked: room ? 2 : 8,
          remaining: room ? 6 : 0,
          available: room,
          unavailableReason: room ? null : 'FULL',
        });
      }
    }
    return list;
  }

  async function fetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
    const url = new URL(String(input));
    const headers = { ...(init.headers as Record<string, string> | undefined) };
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ method, url, headers, body, referrerPolicy: init.referrerPolicy, credentials: init.credentials });
    const path = url.pathname.replace(/^\/public\/v1\/manage/, '');

    const i = failures.findIndex((f) => `${method} ${path}`.startsWith(f.match));
    if (i >= 0) {
      const { failure } = failures.splice(i, 1)[0]!;
      if (failure === 'network') throw new TypeError('Failed to fetch');
      return refuse(failure.status, failure.code);
    }
    if (headers['X-Manage-Token'] !== TOKEN) return refuse(404, 'NOT_FOUND');
    const ok = () => json(200, { success: true, data: state });

    if (method === 'GET' && path === '') return ok();
    if (method === 'GET' && path === '/availability') {
      const startDate = url.searchParams.get('startDate')!;
      const endDate = url.searchParams.get('endDate')!;
      return json(200, {
        success: true,
        data: { experienceId: state.booking.experience.id, timezone: state.timezone, startDate, endDate, slots: slots(startDate, endDate) },
      });
    }
    if (method === 'POST' && path === '/cancel') {
      if (!state.canCancel) return refuse(409, 'CHANGE_NOT_ALLOWED');
      state = { ...state, canCancel: false, canReschedule: false, reason: 'NOT_ACTIVE', booking: { ...state.booking, status: 'CANCELLED' } };
      return ok();
    }
    if (method === 'POST' && path === '/reschedule') {
      if (!state.canReschedule) return refuse(409, 'CHANGE_NOT_ALLOWED');
      const { startTime } = body as { startTime: string };
      if (full.has(startTime)) return refuse(409, 'CAPACITY_EXCEEDED');
      const end = new Date(new Date(startTime).getTime() + 7_200_000).toISOString();
      state = { ...state, booking: { ...state.booking, timeSlot: { id: slotId(startTime), startTime, endTime: end } } };
      return ok();
    }
    if (method === 'POST' && path === '/update') {
      const change = body as { participants?: number; tickets?: { categoryId: string; quantity: number }[]; customerName?: string; customerPhone?: string | null };
      const party = change.participants !== undefined || change.tickets !== undefined;
      if ((party && !state.canChangeParty) || ((change.customerName !== undefined || change.customerPhone !== undefined) && !state.canEditContact)) {
        return refuse(409, 'CHANGE_NOT_ALLOWED');
      }
      if (change.customerName !== undefined && change.customerName.trim() === '') {
        return json(400, { success: false, error: { code: 'VALIDATION_ERROR', message: 'Invalid', details: [{ path: 'customerName', message: 'Required' }] } });
      }
      const b = { ...state.booking };
      if (change.participants !== undefined) {
        if (change.participants > 6) return refuse(409, 'CAPACITY_EXCEEDED');
        const unit = Number(b.total) / b.totalParticipants;
        b.totalParticipants = change.participants;
        b.total = (unit * change.participants).toFixed(2);
      }
      if (change.tickets !== undefined) {
        const next = b.tickets
          .map((t) => ({ ...t, quantity: change.tickets!.find((c) => c.categoryId === t.categoryId)?.quantity ?? 0 }))
          .filter((t) => t.quantity > 0);
        b.tickets = next;
        b.totalParticipants = next.reduce((n, t) => n + t.quantity, 0);
        b.total = (next.reduce((n, t) => n + t.quantity * t.unitPrice, 0) / 100).toFixed(2);
      }
      if (change.customerName !== undefined) b.guestName = change.customerName;
      if (change.customerPhone !== undefined) b.guestPhone = change.customerPhone;
      state = { ...state, booking: b };
      return ok();
    }
    return refuse(404, 'NOT_FOUND');
  }

  return {
    fetch,
    calls,
    get state() {
      return state;
    },
    /** The next call whose `METHOD path` starts with `match` fails this way. */
    failNext(match: string, failure: Failure) {
      failures.push({ match, failure });
    },
    /** Another guest takes the last places of the slot starting then. */
    fill(startTime: string) {
      full.add(startTime);
    },
  };
}
