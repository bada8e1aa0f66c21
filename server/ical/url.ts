// Calendar subscription URLs: `webcal://` is how calendar apps spell an https feed, and private
// calendar URLs carry their secret in the path or query, so lists show them masked.

/** The URL to fetch: `webcal://` and `webcals://` read as `https://`. */
export function fetchableCalendarUrl(url: string): string {
  return url.trim().replace(/^webcals?:\/\//i, 'https://');
}

/**
 * The URL as lists show it: scheme, host and first path segment; the rest of the path, the query
 * and any user info replaced by `…` (`https://calendar.google.com/calendar/…`).
 */
export function maskCalendarUrl(url: string): string {
  const trimmed = url.trim();
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(trimmed)?.[0].toLowerCase() ?? 'https:';
  let parsed: URL;
  try {
    parsed = new URL(fetchableCalendarUrl(trimmed));
  } catch {
    return '…';
  }
  const segments = parsed.pathname.split('/').filter((s) => s !== '');
  const path = segments.length === 0 ? '' : `/${segments[0]}${segments.length > 1 ? '/…' : ''}`;
  const userInfo = parsed.username || parsed.password ? '…@' : '';
  return `${scheme}//${userInfo}${parsed.host}${path}${parsed.search ? '?…' : ''}`;
}
