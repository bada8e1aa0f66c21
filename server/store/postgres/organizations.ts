import type { Async } from '../index.js';
import { COLUMNS as SQLITE_COLUMNS, type OrganizationRow, type organizationStore } from '../organizations.js';
import { quoteAliases, type PgDb } from './db.js';

/** SQLite's column list with its camelCase aliases quoted: PostgreSQL folds unquoted ones to lower case. */
const COLUMNS = quoteAliases(SQLITE_COLUMNS);

export function organizationStorePg(db: PgDb): Async<ReturnType<typeof organizationStore>> {
  return {
    async insertOrganization(row: OrganizationRow): Promise<void> {
      await db.run(
        `INSERT INTO organizations
          (id, name, email, phone, timezone, currency, online_payments, cancellation_cutoff_hours, guest_self_service, created_at, updated_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
        [row.id, row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.createdAt, row.updatedAt],
      );
    },
    async getOrganization(id: string): Promise<OrganizationRow | undefined> {
      return await db.get<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = $1`, [id]);
    },
    async updateOrganization(row: OrganizationRow): Promise<void> {
      await db.run(
        `UPDATE organizations SET name = $2, email = $3, phone = $4, timezone = $5, currency = $6,
          online_payments = $7, cancellation_cutoff_hours = $8, guest_self_service = $9, updated_at = $10
          WHERE id = $1`,
        [row.id, row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.updatedAt],
      );
    },
    async countOrganizations(): Promise<number> {
      return (await db.get<{ n: number }>('SELECT count(*) AS n FROM organizations'))!.n;
    },
    async listOrganizations(limit: number): Promise<OrganizationRow[]> {
      return await db.all<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, id LIMIT $1`, [limit]);
    },
  };
}
