import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type ExperienceRow, type experienceStore } from '../experiences.js';
import type { Page, PageResult } from '../statements.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

export function experienceStorePg(db: PgDb): Async<ReturnType<typeof experienceStore>> {
  return {
    async insertExperience(row: ExperienceRow): Promise<void> {
      await db.run(
        `INSERT INTO experiences (id, org_id, name, description, duration, price, max_participants, max_per_booking,
          schedule, min_notice_minutes, max_advance_days, active, price_categories, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
        [row.id, row.orgId, row.name, row.description, row.duration, row.price, row.maxParticipants, row.maxPerBooking,
          row.schedule, row.minNoticeMinutes, row.maxAdvanceDays, row.active, row.priceCategories, row.createdAt, row.updatedAt],
      );
    },
    async getExperience(orgId: string, id: string): Promise<ExperienceRow | undefined> {
      return await db.get<ExperienceRow>(`SELECT ${COLUMNS} FROM experiences WHERE org_id = $1 AND id = $2`, [orgId, id]);
    },
    /** Oldest first, `id` breaking ties. */
    async listExperiences(orgId: string, filter: { active?: boolean }, page: Page): Promise<PageResult<ExperienceRow>> {
      const where = filter.active === undefined ? 'org_id = $1' : 'org_id = $1 AND active = $2';
      const params: unknown[] = filter.active === undefined ? [orgId] : [orgId, filter.active ? 1 : 0];
      const next = params.length + 1;
      const total = (await db.get<{ n: number }>(`SELECT count(*) AS n FROM experiences WHERE ${where}`, params))!.n;
      const rows = await db.all<ExperienceRow>(
        `SELECT ${COLUMNS} FROM experiences WHERE ${where} ORDER BY created_at, id LIMIT $${next} OFFSET $${next + 1}`,
        [...params, page.limit, page.offset],
      );
      return { rows, total };
    },
    async listAllExperiences(orgId: string): Promise<ExperienceRow[]> {
      return await db.all<ExperienceRow>(`SELECT ${COLUMNS} FROM experiences WHERE org_id = $1 ORDER BY created_at, id`, [orgId]);
    },
    async updateExperience(row: ExperienceRow): Promise<void> {
      await db.run(
        `UPDATE experiences SET name = $3, description = $4, duration = $5, price = $6, max_participants = $7,
          max_per_booking = $8, schedule = $9, min_notice_minutes = $10, max_advance_days = $11, active = $12,
          price_categories = $13, updated_at = $14 WHERE org_id = $1 AND id = $2`,
        [row.orgId, row.id, row.name, row.description, row.duration, row.price, row.maxParticipants, row.maxPerBooking,
          row.schedule, row.minNoticeMinutes, row.maxAdvanceDays, row.active, row.priceCategories, row.updatedAt],
      );
    },
    async deleteExperience(orgId: string, id: string): Promise<void> {
      await db.run('DELETE FROM experiences WHERE org_id = $1 AND id = $2', [orgId, id]);
    },
    async experienceHasBookings(id: string): Promise<boolean> {
      return (await db.get('SELECT 1 FROM bookings WHERE experience_id = $1 LIMIT 1', [id])) !== undefined;
    },
  };
}
