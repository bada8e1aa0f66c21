/**
 * A DashboardApi in memory for component tests: one organization in Lisbon, a day with one slot
 * and two guests, and every call recorded. A test changes `answers` to make a call fail.
 */
import type { Experience, Manifest, Session } from '../../shared/index.js';
import { ApiError, type DashboardApi, type Http } from '../api.js';

export const PASSWORD = 'a long walk through Alfama';

export const session: Session = {
  user: {
    id: 'usr_1',
    email: 'owner@lisbonwalks.example',
    name: 'Marta Reis',
    role: 'owner',
    createdAt: '2026-11-01T09:00:00.000Z',
    lastSignInAt: null,
    disabledAt: null,
  },
  organization: { id: 'org_1', name: 'Lisbon Walks' },
  csrfToken: 'csrf-token-1',
};

const booking = (id: string, name: string, participants: number, checkedInAt: string | null = null) => ({
  id,
  bookingNumber: `BK-${id.toUpperCase().padEnd(8, '0').slice(0, 8)}`,
  status: 'CONFIRMED' as const,
  guestName: name,
  guestEmail: `${id}@example.com`,
  guestPhone: null,
  totalParticipants: participants,
  tickets: [],
  answers: [],
  extras: [],
  total: (participants * 25).toFixed(2),
  paid: '0.00',
  currency: 'EUR',
  checkedInAt,
  metadata: {},
  internalNote: null,
});

export function manifestOf(date: string, withGuests = true): Manifest {
  return {
    date,
    timezone: 'Europe/Lisbon',
    slots: [
      {
        experience: { id: 'exp_walk', title: 'Alfama Old Town Walk' },
        timeSlot: { id: 'slt_1', startTime: `${date}T10:00:00.000Z`, endTime: `${date}T12:00:00.000Z` },
        capacity: 12,
        booked: withGuests ? 3 : 0,
        remaining: withGuests ? 9 : 12,
        closed: false,
        note: null,
        bookings: withGuests ? [booking('ana', 'Ana Lima', 2), booking('bruno', 'Bruno Costa', 1)] : [],
      },
    ],
  };
}

/** Every call refused as unknown: a screen's test passes its own `http` for the routes it uses. */
export const noHttp: Http = {
  get: (_schema, path) => Promise.reject(new ApiError(404, 'NOT_FOUND', `Not faked: GET ${path}`)),
  list: (_schema, path) => Promise.reject(new ApiError(404, 'NOT_FOUND', `Not faked: GET ${path}`)),
  send: (_schema, method, path) => Promise.reject(new ApiError(404, 'NOT_FOUND', `Not faked: ${method} ${path}`)),
  download: (path) => Promise.reject(new ApiError(404, 'NOT_FOUND', `Not faked: GET ${path}`)),
};

export function fakeApi(options: { signedIn?: boolean; today?: string; http?: Http; session?: Session; experiences?: Experience[] } = {}) {
  const calls: string[] = [];
  const tokens: (string | undefined)[] = [];
  let signedIn = options.signedIn ?? false;
  const today = options.today ?? '2026-12-01';
  const day = new Map<string, Manifest>();
  const manifest = (date: string) => {
    if (!day.has(date)) day.set(date, manifestOf(date, date === today));
    return day.get(date)!;
  };
  /** Set to make the next call of that name fail with this error. */
  const failures = new Map<string, ApiError>();
  let csrf: () => string | undefined = () => undefined;

  const answer = async <T>(name: string, work: () => T): Promise<T> => {
    calls.push(name);
    tokens.push(csrf());
    // An answer comes later, as from the network.
    await Promise.resolve();
    const failure = failures.get(name);
    if (failure) {
      failures.delete(name);
      throw failure;
    }
    return work();
  };
  const unauthorized = () => new ApiError(401, 'UNAUTHORIZED', 'Sign in first: no live session');

  const me = options.session ?? session;
  const api: DashboardApi = {
    http: options.http ?? noHttp,
    getSession: () =>
      answer('getSession', () => {
        if (!signedIn) throw unauthorized();
        return me;
      }),
    signIn: ({ email, password }) =>
      answer('signIn', () => {
        if (email !== session.user.email || password !== PASSWORD) {
          throw new ApiError(401, 'INVALID_CREDENTIALS', 'The e-mail address or the password is wrong');
        }
        signedIn = true;
        return session;
      }),
    setUpPassword: () => answer('setUpPassword', () => ((signedIn = true), session)),
    signOut: () => answer('signOut', () => void (signedIn = false)),
    getManifest: (date) => answer('getManifest', () => manifest(date ?? today)),
    listExperiences: () => answer('listExperiences', () => options.experiences ?? []),
    setCheckedIn: (id, checkedIn) =>
      answer('setCheckedIn', () => {
        const m = [...day.values()].find((d) => d.slots.some((s) => s.bookings.some((b) => b.id === id)))!;
        const b = m.slots.flatMap((s) => s.bookings).find((x) => x.id === id)!;
        b.checkedInAt = checkedIn ? '2026-12-01T09:58:00.000Z' : null;
        return { ...b, checkedInAt: b.checkedInAt } as never;
      }),
    downloadManifestCsv: (date) => answer('downloadManifestCsv', () => ({ blob: new Blob(['start\r\n']), filename: `manifest-${date}.csv` })),
  };
  return {
    api,
    calls,
    tokens,
    failures,
    /** Hands the fake the model's token getter, as mountDashboard does with the real api. */
    make: (getter: () => string | undefined) => ((csrf = getter), api),
  };
}
