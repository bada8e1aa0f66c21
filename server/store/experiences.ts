import type { Page, PageResult, Sql } from './sql.js';

export interface ExperienceRow {
  id: string;
  orgId: string;
  name: string;
  description: string;
  duration: number;
  price: number;
  maxParticipants: number;
  maxPerBooking: number | null;
  schedule: string | null; // JSON
  minNoticeMinutes: number;
  maxAdvanceDays: number;
  active: number;
  /** JSON array of the price categories (migration 007); '[]' books by participants. */
  priceCategories: string;
  /** What a guest needs on the day (migration 016); absent when inserting or updating means null. */
  meetingPoint?: string | null;
  meetingPointUrl?: string | null;
  guestInstructions?: string | null;
  /** JSON arrays of the questions and extras (migration 017); absent when inserting or updating means '[]'. */
  questions?: string;
  extras?: string;
  /** 1 when a full slot takes a waitlist (migration 019); absent when inserting or updating means 0. */
  waitlist?: number;
  createdAt: number;
  updatedAt: number;
}

/** What an organization offers to book: its experiences. Ids are unique across organizations. */
export interface ExperienceStore {
  insertExperience(row: ExperienceRow): Promise<void>;
  /** Within the organization only: another organization's id answers nothing. */
  getExperience(orgId: string, id: string): Promise<ExperienceRow | undefined>;
  /** Oldest first, `id` breaking ties; `active` keeps only the (in)active ones when given. */
  listExperiences(orgId: string, filter: { active?: boolean }, page: Page): Promise<PageResult<ExperienceRow>>;
  /** Every experience of the organization, in the order of `listExperiences`. */
  listAllExperiences(orgId: string): Promise<ExperienceRow[]>;
  /** Every field but the organization and the creation time; an experience of another organization is left alone. */
  updateExperience(row: ExperienceRow): Promise<void>;
  /**
   * Refused by the foreign key while bookings of it remain (see `experienceHasBookings`); its waitlist
   * entries (and their e-mails) go with it.
   */
  deleteExperience(orgId: string, id: string): Promise<void>;
  experienceHasBookings(id: string): Promise<boolean>;
}

const COLUMNS = `id, org_id AS "orgId", name, description, duration, price, max_participants AS "maxParticipants",
  max_per_booking AS "maxPerBooking", schedule, min_notice_minutes AS "minNoticeMinutes",
  max_advance_days AS "maxAdvanceDays", active, price_categories AS "priceCategories", meeting_point AS "meetingPoint",
  meeting_point_url AS "meetingPointUrl", guest_instructions AS "guestInstructions", questions, extras, waitlist, created_at AS "createdAt", updated_at AS "updatedAt"`;

export function experienceStore(sql: Sql): ExperienceStore {
  return {
    async insertExperience(row) {
      await sql.run(
        `INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, max_per_booking,
          schedule, min_notice_minutes, max_advance_days, active, price_categories, meeting_point, meeting_point_url,
          guest_instructions, questions, extras, waitlist, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.orgId, row.name, row.description, row.duration, row.price, row.maxParticipants, row.maxPerBooking,
          row.schedule, row.minNoticeMinutes, row.maxAdvanceDays, row.active, row.priceCategories, row.meetingPoint ?? null,
          row.meetingPointUrl ?? null, row.guestInstructions ?? null, row.questions ?? '[]', row.extras ?? '[]', row.waitlist ?? 0, row.createdAt, row.updatedAt],
      );
    },
    getExperience: (orgId, id) => sql.getCached<ExperienceRow>(`SELECT ${COLUMNS} FROM experiences WHERE org_id = ? AND id = ?`, [orgId, id]),
    async listExperiences(orgId, filter, page) {
      const where = filter.active === undefined ? 'org_id = ?' : 'org_id = ? AND active = ?';
      const params: unknown[] = filter.active === undefined ? [orgId] : [orgId, filter.active ? 1 : 0];
      const total = (await sql.get<{ n: number }>(`SELECT count(*) AS n FROM experiences WHERE ${where}`, params))!.n;
      const rows = await sql.all<ExperienceRow>(
        `SELECT ${COLUMNS} FROM experiences WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`,
        [...params, page.limit, page.offset],
      );
      return { rows, total };
    },
    listAllExperiences: (orgId) => sql.all<ExperienceRow>(`SELECT ${COLUMNS} FROM experiences WHERE org_id = ? ORDER BY created_at, id`, [orgId]),
    async updateExperience(row) {
      await sql.run(
        `UPDATE experiences SET name = ?, description = ?, duration = ?, price = ?, max_participants = ?, max_per_booking = ?,
          schedule = ?, min_notice_minutes = ?, max_advance_days = ?, active = ?, price_categories = ?, meeting_point = ?,
          meeting_point_url = ?, guest_instructions = ?, questions = ?, extras = ?, waitlist = ?, updated_at = ?
          WHERE org_id = ? AND id = ?`,
        [row.name, row.description, row.duration, row.price, row.maxParticipants, row.maxPerBooking, row.schedule,
          row.minNoticeMinutes, row.maxAdvanceDays, row.active, row.priceCategories, row.meetingPoint ?? null,
          row.meetingPointUrl ?? null, row.guestInstructions ?? null, row.questions ?? '[]', row.extras ?? '[]', row.waitlist ?? 0, row.updatedAt,
          row.orgId, row.id],
      );
    },
    async deleteExperience(orgId, id) {
      await sql.run('DELETE FROM waitlist_entries WHERE org_id = ? AND experience_id = ?', [orgId, id]);
      await sql.run('DELETE FROM experiences WHERE org_id = ? AND id = ?', [orgId, id]);
    },
    async experienceHasBookings(id) {
      return (await sql.get<{ one: number }>('SELECT 1 AS one FROM bookings WHERE experience_id = ? LIMIT 1', [id])) !== undefined;
    },
  };
}
