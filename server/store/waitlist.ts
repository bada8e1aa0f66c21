import type { Page, PageResult, Sql } from './sql.js';
import type { WaitlistStatus } from '../../shared/index.js';

export interface WaitlistRow {
  id: string;
  orgId: string;
  experienceId: string;
  slotStart: number;
  slotEnd: number;
  status: WaitlistStatus;
  /** The places the party takes; an OFFERED entry holds them in the slot's counter. */
  places: number;
  totalParticipants: number;
  /** JSON: the tickets as a booking keeps them, '[]' without price categories. */
  tickets: string;
  /** JSON: the answers as a booking keeps them, '[]' when none. */
  answers: string;
  guestName: string;
  guestEmail: string;
  guestPhone: string | null;
  locale: string;
  /** SHA-256 (hex) of the offer's token; null until offered. */
  tokenHash: string | null;
  offeredAt: number | null;
  offerExpiresAt: number | null;
  bookingId: string | null;
  createdAt: number;
  updatedAt: number;
}

/** What the org's list may be narrowed to (slot start bounds inclusive, epoch ms). */
export interface WaitlistFilter {
  experienceId?: string;
  status?: WaitlistStatus;
  from?: number;
  to?: number;
}

/**
 * The waitlist. Every change of an entry's status is one conditional UPDATE from the statuses it may
 * leave (`moveEntry`), so two processes offering, accepting or expiring the same entry at once
 * cannot both succeed: the one that does not gets `false` and must undo what it did beside it.
 */
export interface WaitlistStore {
  insertEntry(row: WaitlistRow): Promise<void>;
  /** Within the organization only. */
  getEntry(orgId: string, id: string): Promise<WaitlistRow | undefined>;
  /** By the hash of its offer's token, in any organization (the token names its entry). */
  getEntryByTokenHash(tokenHash: string): Promise<WaitlistRow | undefined>;
  /** By slot start, then creation, then id. */
  listEntries(orgId: string, filter: WaitlistFilter, page: Page): Promise<PageResult<WaitlistRow>>;
  /** The slot's WAITING entries, oldest first (id breaking ties): the order offers go in. */
  listWaiting(experienceId: string, slotStart: number): Promise<WaitlistRow[]>;
  /** 1-based rank of a WAITING entry among its slot's WAITING entries by creation. */
  waitingPosition(row: WaitlistRow): Promise<number>;
  /** Whether this e-mail (any case) has a WAITING or OFFERED entry on the slot. */
  hasLiveEntry(experienceId: string, slotStart: number, email: string): Promise<boolean>;
  /**
   * Moves the entry to `to` only from one of `from`, with the fields given; answers whether it did.
   * Every status change goes through here.
   */
  moveEntry(
    id: string,
    from: readonly WaitlistStatus[],
    to: WaitlistStatus,
    fields: Partial<Pick<WaitlistRow, 'tokenHash' | 'offeredAt' | 'offerExpiresAt' | 'bookingId'>> & { updatedAt: number },
  ): Promise<boolean>;
  /** OFFERED entries whose offer ends at or before `now`, soonest first, up to `limit`. */
  listLapsedOffers(now: number, limit: number): Promise<WaitlistRow[]>;
  /** Live (WAITING and OFFERED) entries of one slot, oldest first. */
  listLiveEntries(experienceId: string, slotStart: number): Promise<WaitlistRow[]>;
  /** Counts of WAITING and OFFERED entries per slot start of an experience in [from, to). */
  countLiveBetween(experienceId: string, from: number, to: number): Promise<Map<number, { waiting: number; offered: number }>>;
  /** An organization's entries of one e-mail address (any case), oldest first: a customer's erasure finds them. */
  listEntriesOfEmail(orgId: string, email: string): Promise<WaitlistRow[]>;
  /** Overwrites an entry's guest (an erasure): name, e-mail and phone, whatever its status; its offer's token stops opening it. */
  replaceGuest(id: string, guest: { name: string; email: string; phone: string | null }, updatedAt: number): Promise<void>;
  /**
   * The slots that have WAITING entries, soonest start first (experience id breaking ties), up to
   * `limit`: of one organization, or one experience, or (neither given) every organization.
   */
  listWaitingSlots(scope: { orgId?: string; experienceId?: string }, limit: number): Promise<WaitingSlot[]>;
  /**
   * Gives an OFFERED entry a new offer token (its hash): the link of the offer e-mail being sent now;
   * the link of an earlier attempt stops opening it. False once the entry is no longer OFFERED.
   */
  setOfferTokenHash(id: string, tokenHash: string, updatedAt: number): Promise<boolean>;
}

/** A slot whose WAITING entries may be owed an offer (or an expiry). */
export interface WaitingSlot {
  orgId: string;
  experienceId: string;
  slotStart: number;
}

const COLUMNS = `id, org_id AS "orgId", experience_id AS "experienceId", slot_start AS "slotStart", slot_end AS "slotEnd", status,
  places, total_participants AS "totalParticipants", tickets, answers, guest_name AS "guestName", guest_email AS "guestEmail",
  guest_phone AS "guestPhone", locale, token_hash AS "tokenHash", offered_at AS "offeredAt", offer_expires_at AS "offerExpiresAt",
  booking_id AS "bookingId", created_at AS "createdAt", updated_at AS "updatedAt"`;

const orNull = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** BIGINT columns may come back as strings from PostgreSQL: every number read as the number it is. */
const rowOf = (r: WaitlistRow): WaitlistRow => ({
  ...r,
  slotStart: Number(r.slotStart),
  slotEnd: Number(r.slotEnd),
  places: Number(r.places),
  totalParticipants: Number(r.totalParticipants),
  offeredAt: orNull(r.offeredAt),
  offerExpiresAt: orNull(r.offerExpiresAt),
  createdAt: Number(r.createdAt),
  updatedAt: Number(r.updatedAt),
});

export function waitlistStore(sql: Sql): WaitlistStore {
  const many = async (text: string, params: unknown[]) => (await sql.all<WaitlistRow>(text, params)).map(rowOf);
  return {
    async insertEntry(row) {
      await sql.run(
        `INSERT INTO waitlist_entries (id, org_id, experience_id, slot_start, slot_end, status, places, total_participants, tickets,
          answers, guest_name, guest_email, guest_phone, locale, token_hash, offered_at, offer_expires_at, booking_id, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.experienceId, row.slotStart, row.slotEnd, row.status, row.places, row.totalParticipants, row.tickets,
          row.answers, row.guestName, row.guestEmail, row.guestPhone, row.locale, row.tokenHash, row.offeredAt, row.offerExpiresAt,
          row.bookingId, row.createdAt, row.updatedAt],
      );
    },
    async getEntry(orgId, id) {
      const row = await sql.get<WaitlistRow>(`SELECT ${COLUMNS} FROM waitlist_entries WHERE org_id = ? AND id = ?`, [orgId, id]);
      return row && rowOf(row);
    },
    async getEntryByTokenHash(tokenHash) {
      const row = await sql.get<WaitlistRow>(`SELECT ${COLUMNS} FROM waitlist_entries WHERE token_hash = ?`, [tokenHash]);
      return row && rowOf(row);
    },
    async listEntries(orgId, filter, page) {
      const where = ['org_id = ?'];
      const params: unknown[] = [orgId];
      if (filter.experienceId !== undefined) (where.push('experience_id = ?'), params.push(filter.experienceId));
      if (filter.status !== undefined) (where.push('status = ?'), params.push(filter.status));
      if (filter.from !== undefined) (where.push('slot_start >= ?'), params.push(filter.from));
      if (filter.to !== undefined) (where.push('slot_start <= ?'), params.push(filter.to));
      const clause = where.join(' AND ');
      const count = await sql.get<{ n: number }>(`SELECT count(*) AS n FROM waitlist_entries WHERE ${clause}`, params);
      const rows = await many(
        `SELECT ${COLUMNS} FROM waitlist_entries WHERE ${clause} ORDER BY slot_start, created_at, id LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      return { rows, total: Number(count!.n) }; // count(*) always answers one row
    },
    listWaiting: (experienceId, slotStart) =>
      many(
        `SELECT ${COLUMNS} FROM waitlist_entries WHERE experience_id = ? AND slot_start = ? AND status = 'WAITING' ORDER BY created_at, id`,
        [experienceId, slotStart],
      ),
    async waitingPosition(row) {
      const ahead = await sql.get<{ n: number }>(
        `SELECT count(*) AS n FROM waitlist_entries WHERE experience_id = ? AND slot_start = ? AND status = 'WAITING'
          AND (created_at < ? OR (created_at = ? AND id < ?))`,
        [row.experienceId, row.slotStart, row.createdAt, row.createdAt, row.id],
      );
      return Number(ahead!.n) + 1;
    },
    async hasLiveEntry(experienceId, slotStart, email) {
      const row = await sql.get<{ one: number }>(
        `SELECT 1 AS one FROM waitlist_entries WHERE experience_id = ? AND slot_start = ? AND lower(guest_email) = ?
          AND status IN ('WAITING', 'OFFERED') LIMIT 1`,
        [experienceId, slotStart, email.toLowerCase()],
      );
      return row !== undefined;
    },
    async moveEntry(id, from, to, fields) {
      const sets = ['status = ?', 'updated_at = ?'];
      const params: unknown[] = [to, fields.updatedAt];
      for (const [column, key] of [
        ['token_hash', 'tokenHash'],
        ['offered_at', 'offeredAt'],
        ['offer_expires_at', 'offerExpiresAt'],
        ['booking_id', 'bookingId'],
      ] as const) {
        if (fields[key] !== undefined) (sets.push(`${column} = ?`), params.push(fields[key]));
      }
      const marks = from.map(() => '?').join(', ');
      return (await sql.run(`UPDATE waitlist_entries SET ${sets.join(', ')} WHERE id = ? AND status IN (${marks})`, [...params, id, ...from])) === 1;
    },
    listLapsedOffers: (now, limit) =>
      many(
        `SELECT ${COLUMNS} FROM waitlist_entries WHERE status = 'OFFERED' AND offer_expires_at <= ? ORDER BY offer_expires_at, id LIMIT ?`,
        [now, limit],
      ),
    listLiveEntries: (experienceId, slotStart) =>
      many(
        `SELECT ${COLUMNS} FROM waitlist_entries WHERE experience_id = ? AND slot_start = ? AND status IN ('WAITING', 'OFFERED')
          ORDER BY created_at, id`,
        [experienceId, slotStart],
      ),
    async countLiveBetween(experienceId, from, to) {
      const rows = await sql.all<{ slotStart: number; status: WaitlistStatus; n: number }>(
        `SELECT slot_start AS "slotStart", status, count(*) AS n FROM waitlist_entries
          WHERE experience_id = ? AND slot_start >= ? AND slot_start < ? AND status IN ('WAITING', 'OFFERED')
          GROUP BY slot_start, status`,
        [experienceId, from, to],
      );
      const counts = new Map<number, { waiting: number; offered: number }>();
      for (const r of rows) {
        const at = Number(r.slotStart);
        const c = counts.get(at) ?? { waiting: 0, offered: 0 };
        if (r.status === 'WAITING') c.waiting = Number(r.n);
        else c.offered = Number(r.n);
        counts.set(at, c);
      }
      return counts;
    },
    listEntriesOfEmail: (orgId, email) =>
      many(`SELECT ${COLUMNS} FROM waitlist_entries WHERE org_id = ? AND lower(guest_email) = ? ORDER BY created_at, id`, [orgId, email.toLowerCase()]),
    async replaceGuest(id, guest, updatedAt) {
      await sql.run('UPDATE waitlist_entries SET guest_name = ?, guest_email = ?, guest_phone = ?, token_hash = NULL, updated_at = ? WHERE id = ?', [
        guest.name, guest.email, guest.phone, updatedAt, id,
      ]);
    },
    async listWaitingSlots(scope, limit) {
      const where = ["status = 'WAITING'"];
      const params: unknown[] = [];
      if (scope.orgId !== undefined) (where.push('org_id = ?'), params.push(scope.orgId));
      if (scope.experienceId !== undefined) (where.push('experience_id = ?'), params.push(scope.experienceId));
      const rows = await sql.all<WaitingSlot>(
        `SELECT DISTINCT org_id AS "orgId", experience_id AS "experienceId", slot_start AS "slotStart" FROM waitlist_entries
          WHERE ${where.join(' AND ')} ORDER BY slot_start, experience_id LIMIT ?`,
        [...params, limit],
      );
      return rows.map((r) => ({ ...r, slotStart: Number(r.slotStart) }));
    },
    async setOfferTokenHash(id, tokenHash, updatedAt) {
      return (await sql.run(`UPDATE waitlist_entries SET token_hash = ?, updated_at = ? WHERE id = ? AND status = 'OFFERED'`, [tokenHash, updatedAt, id])) === 1;
    },
  };
}
