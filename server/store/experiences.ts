import type { Db } from './db.js';
import { rowCache } from './row-cache.js';
import { statementCache, type Page, type PageResult } from './statements.js';

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
  createdAt: number;
  updatedAt: number;
}

export const COLUMNS = `id, org_id AS orgId, name, description, duration, price, max_participants AS maxParticipants,
  max_per_booking AS maxPerBooking, schedule, min_notice_minutes AS minNoticeMinutes,
  max_advance_days AS maxAdvanceDays, active, price_categories AS priceCategories, created_at AS createdAt, updated_at AS updatedAt`;

export function experienceStore(db: Db) {
  const prepared = statementCache(db);
  const insert = db.prepare(`INSERT INTO experiences (id, org_id, name, description, duration, price,
    max_participants, max_per_booking, schedule, min_notice_minutes, max_advance_days, active, price_categories, created_at, updated_at)
    VALUES (@id, @orgId, @name, @description, @duration, @price, @maxParticipants, @maxPerBooking, @schedule,
    @minNoticeMinutes, @maxAdvanceDays, @active, @priceCategories, @createdAt, @updatedAt)`);
  const get = db.prepare(`SELECT ${COLUMNS} FROM experiences WHERE org_id = ? AND id = ?`);
  const update = db.prepare(`UPDATE experiences SET name = @name, description = @description,
    duration = @duration, price = @price, max_participants = @maxParticipants, max_per_booking = @maxPerBooking,
    schedule = @schedule, min_notice_minutes = @minNoticeMinutes, max_advance_days = @maxAdvanceDays,
    active = @active, price_categories = @priceCategories, updated_at = @updatedAt WHERE org_id = @orgId AND id = @id`);
  const remove = db.prepare('DELETE FROM experiences WHERE org_id = ? AND id = ?');
  const anyBooking = db.prepare('SELECT 1 FROM bookings WHERE experience_id = ? LIMIT 1');
  const listAll = db.prepare(`SELECT ${COLUMNS} FROM experiences WHERE org_id = ? ORDER BY created_at, id`);
  // Every booking reads its experience: see row-cache.ts. Kept by organization and id.
  const cached = rowCache<ExperienceRow>(db);

  return {
    insertExperience(row: ExperienceRow): void {
      cached.forget();
      insert.run(row);
    },
    getExperience(orgId: string, id: string): ExperienceRow | undefined {
      return cached.read(`${orgId} ${id}`, () => get.get(orgId, id) as ExperienceRow | undefined);
    },
    /** Oldest first, `id` breaking ties. */
    listExperiences(orgId: string, filter: { active?: boolean }, page: Page): PageResult<ExperienceRow> {
      const where = filter.active === undefined ? 'org_id = ?' : 'org_id = ? AND active = ?';
      const params: unknown[] = filter.active === undefined ? [orgId] : [orgId, filter.active ? 1 : 0];
      const total = (prepared(`SELECT count(*) AS n FROM experiences WHERE ${where}`).get(...params) as { n: number }).n;
      const rows = prepared(`SELECT ${COLUMNS} FROM experiences WHERE ${where} ORDER BY created_at, id LIMIT ? OFFSET ?`)
        .all(...params, page.limit, page.offset) as ExperienceRow[];
      return { rows, total };
    },
    listAllExperiences(orgId: string): ExperienceRow[] {
      return listAll.all(orgId) as ExperienceRow[];
    },
    updateExperience(row: ExperienceRow): void {
      cached.forget();
      update.run(row);
    },
    deleteExperience(orgId: string, id: string): void {
      cached.forget();
      remove.run(orgId, id);
    },
    experienceHasBookings(id: string): boolean {
      return anyBooking.get(id) !== undefined;
    },
  };
}
