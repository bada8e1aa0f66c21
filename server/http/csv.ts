import type { Reply } from './reply.js';

// Spreadsheets run a cell that starts with one of these as a formula (OWASP "CSV Injection"); a
// leading apostrophe makes them show it as text. Guests type their own names, so every cell is treated.
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One cell: neutralised when it could run as a formula, quoted when RFC 4180 requires it. */
export function csvCell(value: string): string {
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** RFC 4180: CRLF after every record, the last included. */
export function toCsv(rows: readonly (readonly string[])[]): string {
  let out = '';
  for (const row of rows) out += `${row.map(csvCell).join(',')}\r\n`;
  return out;
}

/** A CSV file as a download: its errors still answer as JSON envelopes, through the router. */
export function csvDownload(rows: readonly (readonly string[])[], filename: string): Reply {
  return {
    status: 200,
    body: undefined,
    raw: {
      body: toCsv(rows),
      contentType: 'text/csv; charset=utf-8',
      headers: { 'Content-Disposition': `attachment; filename="${filename}"` },
    },
  };
}
