import { ApiRoutes } from '../http/router.js';
import type { RouteContext } from './context.js';
import { ok } from '../http/reply.js';
import { csvDownload } from '../http/csv.js';
import { manifestCsvFilename, manifestCsvRows, serializeManifest } from '../serializers/manifest.js';
import { manifestFor } from '../services/manifest.js';
import { Manifest, ManifestQuery } from '../../shared/index.js';

const DESCRIPTION =
  "`date` is read in the organization's time zone (default today). Every slot of every active experience that " +
  'starts that day is listed, booked or not, and every slot holding a CONFIRMED or PENDING booking, of inactive ' +
  'experiences too; by start, then experience name. Cancelled bookings are left out. `paid` sums the succeeded payments.';

export function manifestRoutes(ctx: RouteContext): ApiRoutes {
  const tag = 'Manifest';
  const { store } = ctx;
  return new ApiRoutes(ctx)
    .op(
      {
        method: 'get',
        path: '/manifest',
        summary: "A day's time slots with their guests",
        description: DESCRIPTION,
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: ManifestQuery,
        response: Manifest,
      },
      async ({ caller, query }) => ok(serializeManifest(await manifestFor(store, caller.orgId, query, ctx.now()))),
    )
    .op(
      {
        method: 'get',
        path: '/manifest.csv',
        summary: "A day's guests as a CSV file",
        description:
          'The manifest of `GET /v1/manifest` as RFC 4180 CSV (UTF-8, CRLF), one row per booking under a header row: ' +
          '`start` (local HH:MM in the experience’s time zone), `experience`, `bookingNumber`, `status`, `guestName`, ' +
          '`guestEmail`, `guestPhone`, `participants`, `tickets`, `total`, `paid`, `currency`, `checkedIn` (yes/no), `note` (the ' +
          'internal note), `extras` (`2 × Lunch; 1 × Photos`) and `answers` (`label: value; …`, a checkbox as yes/no), ' +
          'both empty when none. A cell ' +
          "that a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or a carriage return) gets a leading '. " +
          'Errors answer as JSON envelopes.',
        tag,
        auth: 'secret',
        scope: 'bookings:read',
        query: ManifestQuery,
        file: { mediaType: 'text/csv', example: 'ManifestCsv' },
      },
      async ({ caller, query }) => {
        const manifest = await manifestFor(store, caller.orgId, query, ctx.now());
        return csvDownload(manifestCsvRows(manifest), manifestCsvFilename(manifest));
      },
    );
}
