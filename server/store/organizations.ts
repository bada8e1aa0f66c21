import type { Db } from './db.js';
import { rowCache } from './row-cache.js';

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

export const COLUMNS = `id, name, email, phone, timezone, currency, online_payments AS onlinePayments,
  cancellation_cutoff_hours AS cancellationCutoffHours, guest_self_service AS guestSelfService, created_at AS createdAt, updated_at AS updatedAt`;

export function organizationStore(db: Db) {
  const insert = db.prepare(`INSERT INTO organizations
    (id, name, email, phone, timezone, currency, online_payments, cancellation_cutoff_hours, guest_self_service, created_at, updated_at)
    VALUES (@id, @name, @email, @phone, @timezone, @currency, @onlinePayments, @cancellationCutoffHours, @guestSelfService,
    @createdAt, @updatedAt)`);
  const get = db.prepare(`SELECT ${COLUMNS} FROM organizations WHERE id = ?`);
  const update = db.prepare(`UPDATE organizations SET name = @name, email = @email, phone = @phone,
    timezone = @timezone, currency = @currency, online_payments = @onlinePayments,
    cancellation_cutoff_hours = @cancellationCutoffHours, guest_self_service = @guestSelfService, updated_at = @updatedAt
    WHERE id = @id`);
  const count = db.prepare('SELECT count(*) AS n FROM organizations');
  const list = db.prepare(`SELECT ${COLUMNS} FROM organizations ORDER BY created_at, id LIMIT ?`);
  // Every booking reads its organization: see row-cache.ts.
  const cached = rowCache<OrganizationRow>(db);

  return {
    insertOrganization(row: OrganizationRow): void {
      cached.forget();
      insert.run(row);
    },
    getOrganization(id: string): OrganizationRow | undefined {
      return cached.read(id, () => get.get(id) as OrganizationRow | undefined);
    },
    updateOrganization(row: OrganizationRow): void {
      cached.forget();
      update.run(row);
    },
    countOrganizations(): number {
      return (count.get() as { n: number }).n;
    },
    /** Every organization on the server, oldest first, up to `limit` (for the CLI). */
    listOrganizations(limit: number): OrganizationRow[] {
      return list.all(limit) as OrganizationRow[];
    },
  };
}
