/**
 * A DashboardApi in memory for component tests: one organization in Lisbon, a day with one slot
 * and two guests, and every call recorded. A test changes `answers` to make a call fail.
 */
import type { Experience, Manifest, Session } from '../../shared/index.js';
import { ApiError, type DashboardApi, type Http, type Query } from '../api.js';

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
        waitlist: { waiting: 0, offered: 0 },
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

/**
 * Settings › Promo codes and Gift vouchers in memory: a Lisbon organization in EUR, two experiences,
 * one promo code and two vouchers (one with a spend, a return and its e-mail). `refuse` makes the
 * next `METHOD /path` fail; a code already taken (any case) is refused as the server does, 409.
 */
export function promotionsHttp() {
  const at = '2026-11-20T10:00:00.000Z';
  const calls: { method: string; path: string; query?: Query; body?: Record<string, unknown> }[] = [];
  const refuse = new Map<string, ApiError>();
  const db = {
    org: { id: 'org_1', name: 'Lisbon Walks', email: 'hello@lisbonwalks.example', phone: null, timezone: 'Europe/Lisbon', currency: 'EUR', onlinePayments: false, cancellationCutoffHours: 24, guestSelfService: true, waitlistOfferMinutes: 720, notificationEmails: [], notifyOn: [], brandColor: null, logoUrl: null, giftVoucherAmounts: [], defaultLocale: 'en', createdAt: at, updatedAt: at },
    experiences: [
      { id: 'exp_walk', name: 'Alfama Old Town Walk', active: true },
      { id: 'exp_boat', name: 'Tagus Sunset Cruise', active: true },
    ],
    promoCodes: [
      { id: 'promo_1', code: 'SUMMER15', discountType: 'PERCENT', discountValue: 15, experienceIds: null, validFrom: null, validUntil: '2026-12-31T23:00:00.000Z', maxUses: 10, uses: 3, active: true, createdAt: at },
    ] as Record<string, unknown>[],
    vouchers: [
      {
        id: 'gv_1', code: 'GV-7K3M-Q9PX-4T2W', amount: '100.00', balance: '60.00', currency: 'EUR', expiresAt: '2029-11-20T10:00:00.000Z', status: 'ACTIVE',
        recipientName: 'Rita Sousa', recipientEmail: 'rita@example.com', message: 'Happy birthday!', createdAt: at,
        purchase: { provider: 'stripe', reference: 'pi_123', amount: '100.00', buyerName: 'Ana Costa', buyerEmail: 'ana@example.com' },
        redemptions: [
          { bookingId: 'bk_ana', amount: '50.00', at },
          { bookingId: 'bk_ana', amount: '-50.00', at: '2026-11-21T10:00:00.000Z' },
          { bookingId: 'bk_bruno', amount: '40.00', at: '2026-11-22T10:00:00.000Z' },
        ],
      },
      { id: 'gv_2', code: 'GV-AAAA-BBBB-CCCC', amount: '25.00', balance: '0.00', currency: 'EUR', expiresAt: null, status: 'USED', recipientName: null, recipientEmail: null, message: null, purchase: null, createdAt: at, redemptions: [] },
    ] as Record<string, unknown>[],
    messages: [{ id: 'msg_1', bookingId: null, kind: 'GIFT_VOUCHER', to: 'rita@example.com', status: 'SENT', attempts: 1, lastError: null, nextAttemptAt: null, sentAt: at, createdAt: at }] as Record<string, unknown>[],
  };
  let made = 0;

  function answer(method: string, path: string, query: Query, b: Record<string, unknown>): unknown {
    const route = `${method} ${path}`;
    if (route === 'GET /v1/organization') return db.org;
    if (route === 'GET /v1/experiences') return db.experiences;
    if (route === 'GET /v1/promo-codes') return db.promoCodes.filter((p) => query['active'] === undefined || String(p['active']) === String(query['active']));
    if (route === 'POST /v1/promo-codes') {
      const code = String(b['code']).toUpperCase();
      if (db.promoCodes.some((p) => p['code'] === code)) throw new ApiError(409, 'CONFLICT', `The code ${code} is already in use`);
      const p = { id: `promo_new${++made}`, experienceIds: null, validFrom: null, validUntil: null, maxUses: null, active: true, ...b, code, uses: 0, createdAt: at };
      db.promoCodes.push(p);
      return p;
    }
    const promo = /^(PATCH|GET|DELETE) \/v1\/promo-codes\/(.+)$/.exec(route);
    if (promo) {
      const p = db.promoCodes.find((x) => x['id'] === promo[2]);
      if (!p) throw new ApiError(404, 'NOT_FOUND', 'No such promo code');
      if (promo[1] === 'DELETE') {
        db.promoCodes.splice(db.promoCodes.indexOf(p), 1);
        return { id: promo[2], deleted: true };
      }
      return Object.assign(p, b);
    }
    if (route === 'GET /v1/gift-vouchers') return db.vouchers.filter((v) => !query['status'] || v['status'] === query['status']);
    if (route === 'POST /v1/gift-vouchers') {
      const v = { id: `gv_new${++made}`, code: 'GV-NEW0-CODE-9XYZ', amount: b['amount'], balance: b['amount'], currency: 'EUR', expiresAt: '2029-11-20T10:00:00.000Z', status: 'ACTIVE', recipientName: null, recipientEmail: null, message: null, purchase: null, ...b, createdAt: at, redemptions: [] };
      db.vouchers.unshift(v);
      return v;
    }
    const resend = /^POST \/v1\/gift-vouchers\/([^/]+)\/messages\/([^/]+)\/resend$/.exec(route);
    if (resend) {
      const copy = { ...db.messages.find((x) => x['id'] === resend[2])!, id: `msg_${db.messages.length + 1}`, status: 'PENDING', sentAt: null };
      db.messages.push(copy);
      return copy;
    }
    if (/^GET \/v1\/gift-vouchers\/[^/]+\/messages$/.test(route)) return path.includes('gv_1') ? db.messages : [];
    const voucher = /^(PATCH|GET) \/v1\/gift-vouchers\/([^/]+)$/.exec(route);
    if (voucher) {
      const v = db.vouchers.find((x) => x['id'] === voucher[2]);
      if (!v) throw new ApiError(404, 'NOT_FOUND', 'No such gift voucher');
      return Object.assign(v, b);
    }
    throw new ApiError(404, 'NOT_FOUND', `Not faked: ${route}`);
  }

  async function handle(method: string, path: string, query: Query = {}, body?: unknown): Promise<unknown> {
    const b = (body ?? {}) as Record<string, unknown>;
    calls.push({ method, path, query, ...(body === undefined ? {} : { body: b }) });
    await Promise.resolve();
    const failure = refuse.get(`${method} ${path}`);
    if (failure) {
      refuse.delete(`${method} ${path}`);
      throw failure;
    }
    return structuredClone(answer(method, path, query, b));
  }

  const http: Http = {
    get: (_schema, path, query) => handle('GET', path, query) as never,
    async list(_schema, path, query: Query = {}) {
      const all = (await handle('GET', path, query)) as unknown[];
      const limit = Number(query['limit'] ?? 20);
      const offset = Number(query['offset'] ?? 0);
      return { data: all.slice(offset, offset + limit), pagination: { total: all.length, limit, offset, hasMore: offset + limit < all.length } } as never;
    },
    send: (_schema, method, path, body) => handle(method, path, {}, body) as never,
    download: () => Promise.reject(new ApiError(404, 'NOT_FOUND', 'no files here')),
  };
  return { http, calls, refuse, db };
}
