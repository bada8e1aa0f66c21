import type { Sql } from './sql.js';

export interface OrganizationRow {
  id: string;
  name: string;
  email: string;
  phone: string | null;
  timezone: string;
  currency: string;
  onlinePayments: number;
  cancellationCutoffHours: number;
  guestSelfService: number;
  createdAt: number;
  updatedAt: number;
}

/** The organizations (tenants) a server holds. */
export interface OrganizationStore {
  insertOrganization(row: OrganizationRow): Promise<void>;
  getOrganization(id: string): Promise<OrganizationRow | undefined>;
  /** Every field but the id and the creation time; nothing happens when no organization has the id. */
  updateOrganization(row: OrganizationRow): Promise<void>;
  countOrganizations(): Promise<number>;
  /** Every organization on the server, oldest first (id breaking ties), up to `limit` (for the CLI). */
  listOrganizations(limit: number): Promise<OrganizationRow[]>;
}

const COLUMNS = `id, name, email, phone, timezone, currency, online_payments AS "onlinePayments",
  cancellation_cutoff_hours AS "cancellationCutoffHours", guest_self_service AS "guestSelfService",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

export function organizationStore(sql: Sql): OrganizationStore {
  return {
    async insertOrganization(row) {
      await sql.run(
        `INSERT INTO organizations
          (id, name, email, phone, timezone, currency, online_payments, cancellation_cutoff_hours, guest_self_service, created_at, updated_at)
          VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [row.id, row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.createdAt, row.updatedAt],
      );
    },
    getOrganization: (id) => sql.getCached<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations WHERE id = ?`, [id]),
    async updateOrganization(row) {
      await sql.run(
        `UPDATE organizations SET name = ?, email = ?, phone = ?, timezone = ?, currency = ?, online_payments = ?,
          cancellation_cutoff_hours = ?, guest_self_service = ?, updated_at = ?
          WHERE id = ?`,
        [row.name, row.email, row.phone, row.timezone, row.currency, row.onlinePayments,
          row.cancellationCutoffHours, row.guestSelfService, row.updatedAt, row.id],
      );
    },
    async countOrganizations() {
      const row = await sql.get<{ n: number }>('SELECT count(*) AS n FROM organizations');
      return row!.n; // count(*) always answers one row
    },
    listOrganizations: (limit) =>
      sql.all<OrganizationRow>(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, id LIMIT ?`, [limit]),
  };
}
