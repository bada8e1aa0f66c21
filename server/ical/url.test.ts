import { describe, expect, it } from 'vitest';
import { fetchableCalendarUrl, maskCalendarUrl } from './url.js';

describe('calendar URLs', () => {
  it('reads webcal:// and webcals:// as https://', () => {
    expect(fetchableCalendarUrl('webcal://p12-caldav.icloud.com/published/2/abc')).toBe('https://p12-caldav.icloud.com/published/2/abc');
    expect(fetchableCalendarUrl('WEBCALS://example.com/a.ics')).toBe('https://example.com/a.ics');
    expect(fetchableCalendarUrl('http://example.com/a.ics')).toBe('http://example.com/a.ics');
  });

  it('masks everything after the first path segment, the query and user info', () => {
    expect(maskCalendarUrl('https://calendar.google.com/calendar/ical/abc%40group.calendar.google.com/private-0123/basic.ics')).toBe(
      'https://calendar.google.com/calendar/…',
    );
    expect(maskCalendarUrl('https://example.com/feed.ics?token=s3cret')).toBe('https://example.com/feed.ics?…');
    expect(maskCalendarUrl('webcal://user:pass@example.com:8443/a/b/c.ics')).toBe('webcal://…@example.com:8443/a/…');
    expect(maskCalendarUrl('https://example.com')).toBe('https://example.com');
    expect(maskCalendarUrl('https://example.com/#frag')).toBe('https://example.com');
  });
});
