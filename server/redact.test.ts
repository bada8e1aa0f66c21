import { describe, expect, it } from 'vitest';
import { redactDatabaseUrl, redactTarget } from './redact.js';
import { databaseLabel } from './store/open.js';

describe('redactDatabaseUrl', () => {
  it('hides the password of the user info, and keeps user, host, port and database', () => {
    expect(redactDatabaseUrl('postgres://outing:s3cret@db.example:5433/outing')).toBe('postgres://outing:[redacted]@db.example:5433/outing');
    expect(redactDatabaseUrl('postgresql://:s3cret@db/outing')).toBe('postgresql://:[redacted]@db/outing');
    // An `@` in the password itself: the user info ends at the last one.
    expect(redactDatabaseUrl('postgres://outing:p@ss@db/outing')).toBe('postgres://outing:[redacted]@db/outing');
    expect(redactDatabaseUrl('postgres://outing@db/outing')).toBe('postgres://outing@db/outing');
    expect(redactDatabaseUrl('postgres://db/outing')).toBe('postgres://db/outing');
  });

  it('hides password= and sslpassword= query parameters, however they are spelled', () => {
    expect(redactDatabaseUrl('postgres://outing@db/outing?password=s3cret')).toBe('postgres://outing@db/outing?password=[redacted]');
    expect(redactDatabaseUrl('postgres://db/outing?sslmode=verify-full&sslpassword=k3y&application_name=outing')).toBe(
      'postgres://db/outing?sslmode=verify-full&sslpassword=[redacted]&application_name=outing',
    );
    // Percent-encoded names, upper case, twice, and both forms at once.
    expect(redactDatabaseUrl('postgres://u:a@db/o?pass%77ord=s1&PASSWORD=s2&password=s3')).toBe(
      'postgres://u:[redacted]@db/o?pass%77ord=[redacted]&PASSWORD=[redacted]&password=[redacted]',
    );
    expect(redactDatabaseUrl('postgres://db/o?sslkey=/etc/key.pem&sslpassphrase=x')).toBe('postgres://db/o?sslkey=/etc/key.pem&sslpassphrase=[redacted]');
  });

  it('redacts URLs a URL parser refuses (several hosts) and key=value conninfo strings', () => {
    expect(redactDatabaseUrl('postgres://outing:s3cret@h1:5432,h2:5432/outing?password=x')).toBe(
      'postgres://outing:[redacted]@h1:5432,h2:5432/outing?password=[redacted]',
    );
    expect(redactDatabaseUrl("host=db dbname=outing password=s3cret sslpassword = 'a b\\' c' user=outing")).toBe(
      'host=db dbname=outing password=[redacted] sslpassword = [redacted] user=outing',
    );
  });

  it('is what databaseLabel shows, and leaves a SQLite path alone', () => {
    expect(databaseLabel({ databasePath: '/x/outing.db', databaseUrl: 'postgres://u:p@h/d?password=q' })).toBe('postgres://u:[redacted]@h/d?password=[redacted]');
    expect(databaseLabel({ databasePath: '/x/outing.db' })).toBe('/x/outing.db');
  });
});

describe('redactTarget', () => {
  it('hides promo and voucher codes, and anything that reads as a gift voucher code, in the query or the path', () => {
    expect(redactTarget('/public/v1/quote?promoCode=SUMMER10&voucherCode=GV-7K2M-Q9XD-4HTR&x=1')).toBe(
      '/public/v1/quote?promoCode=[redacted]&voucherCode=[redacted]&x=1',
    );
    expect(redactTarget('/public/v1/experiences?PROMOCODE=abc&note=gv-7k2m-q9xd-4htr')).toBe('/public/v1/experiences?PROMOCODE=[redacted]&note=[redacted]');
    expect(redactTarget('/v1/bookings/GV-7K2M-Q9XD-4HTR/x?c=GV%207K2M%20Q9XD%204HTR')).toBe('/v1/bookings/[redacted]/x?c=[redacted]');
    expect(redactTarget('/v1/gift-vouchers/gv_8Nc3RpV6zH1kWt')).toBe('/v1/gift-vouchers/gv_8Nc3RpV6zH1kWt');
    expect(redactTarget('/v1/bookings/bk_2Lq8gvN4cR7wTzAbCdEf')).toBe('/v1/bookings/bk_2Lq8gvN4cR7wTzAbCdEf');
  });

  it('hides search terms, whatever they hold', () => {
    expect(redactTarget('/v1/customers?search=guest@example.com&limit=10')).toBe('/v1/customers?search=[redacted]&limit=10');
    expect(redactTarget('/v1/bookings?q=Ana+Silva&status=CONFIRMED')).toBe('/v1/bookings?q=[redacted]&status=CONFIRMED');
    expect(redactTarget('/api/v1/customers?SEARCH=x')).toBe('/api/v1/customers?SEARCH=[redacted]');
  });

  it('hides e-mail addresses in any query value or path segment, percent-encoded or not', () => {
    expect(redactTarget('/v1/bookings?customerEmail=ana%40example.com&limit=5')).toBe('/v1/bookings?customerEmail=[redacted]&limit=5');
    expect(redactTarget('/v1/customers/ana@example.com/bookings')).toBe('/v1/customers/[redacted]/bookings');
    expect(redactTarget('/v1/customers/ana%40example.com')).toBe('/v1/customers/[redacted]');
    expect(redactTarget('/v1/x?ana@example.com')).toBe('/v1/x?[redacted]');
  });

  it('keeps hiding keys, tokens and feed tokens, and leaves the rest as sent', () => {
    expect(redactTarget('/api/ical/abc123?key=opk_x&token=t')).toBe('/api/ical/[redacted]?key=[redacted]&token=[redacted]');
    expect(redactTarget('/public/v1/manage/calendar.ics?token=Abc_-123')).toBe('/public/v1/manage/calendar.ics?token=[redacted]');
    expect(redactTarget('/public/v1/manage/calendar.ics?TOKEN=Abc&token=Def')).toBe('/public/v1/manage/calendar.ics?TOKEN=[redacted]&token=[redacted]');
    expect(redactTarget('/v1/bookings?limit=5&offset=10')).toBe('/v1/bookings?limit=5&offset=10');
    expect(redactTarget('/docs/scalar.js?v=abc')).toBe('/docs/scalar.js?v=abc');
    expect(redactTarget('/node_modules/@scalar/x.js')).toBe('/node_modules/@scalar/x.js');
    expect(redactTarget('/v1/x?bad=%E0%A4%A')).toBe('/v1/x?bad=%E0%A4%A');
  });
});
