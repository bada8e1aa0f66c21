import { describe, expect, it } from 'vitest';
import { composeGuestMessage } from './compose.js';
import { composeOperatorNotice, composeUserInvite, internalNoteOf, type OperatorNoticeInput } from './notices.js';
import { fromHeader } from './smtp.js';
import { bookingView, HOST, messageInput, ORGANIZATION, TICKETS } from './test-helpers/guest.js';

const notice = (overrides: Partial<OperatorNoticeInput> = {}): OperatorNoticeInput => ({
  event: 'BOOKING_CREATED',
  booking: bookingView(),
  timeZone: 'Europe/Lisbon',
  organization: ORGANIZATION,
  to: 'ops@lisbonwalks.example',
  dashboardUrl: 'https://book.example.com/dashboard/bookings/bkg_01JTESTBOOKING0000000000',
  messageId: 'msg_01JTESTNOTICE0000000000',
  host: HOST,
  ...overrides,
});

describe('composeOperatorNotice', () => {
  it('tells the operator the booking in English, Reply-To the guest', () => {
    const m = composeOperatorNotice(notice());
    expect(m.to).toBe('ops@lisbonwalks.example');
    expect(m.fromName).toBe('Lisbon Walks');
    expect(m.subject).toBe('New booking: OUT-7K2M9Q, Alfama Walk, 1 Jul, 10:00');
    expect(m.headers).toEqual({ 'Message-ID': '<msg_01JTESTNOTICE0000000000@book.example.com>', 'Reply-To': 'eve@example.com', 'Content-Language': 'en' });
    for (const line of [
      'Booking number: OUT-7K2M9Q', 'Status: CONFIRMED', 'Experience: Alfama Walk', 'Date and time: Thursday, 1 July 2027, 10:00–12:00 (Europe/Lisbon)',
      'Guest: Eve Adams', 'E-mail: eve@example.com', 'Phone: +351 900 000 000', 'Participants: 3', 'Total: 75.00 EUR', 'Source: WIDGET',
      'https://book.example.com/dashboard/bookings/bkg_01JTESTBOOKING0000000000',
    ]) expect(m.text).toContain(line);
    expect(m.text).not.toContain('Internal note');
    expect(m.attachments).toEqual([]);
  });

  it('names the event, lists tickets, and carries the internal note when the booking has one', () => {
    const booking = { ...bookingView({ tickets: TICKETS, totalCents: 7500, status: 'CANCELLED' }), internalNote: 'VIP <b>guest</b>\nwheelchair' };
    const m = composeOperatorNotice(notice({ event: 'BOOKING_CANCELED', booking }));
    expect(m.subject).toMatch(/^Booking cancelled: OUT-7K2M9Q/);
    expect(m.text).toContain('Tickets: 2 × Adult, 1 × Child');
    expect(m.text).toContain('Internal note:\nVIP <b>guest</b>\nwheelchair');
    expect(m.html).toContain('VIP &#60;b&#62;guest&#60;/b&#62;<br>wheelchair');
    expect(composeOperatorNotice(notice({ event: 'BOOKING_UPDATED' })).subject).toMatch(/^Booking changed:/);
    expect(internalNoteOf({ internalNote: '  ' })).toBeNull();
    expect(internalNoteOf({ internalNote: 7 })).toBeNull();
    expect(internalNoteOf(bookingView())).toBeNull();
  });

  it('lists the booking’s extras and, under Answers, the guest’s answers, escaped in HTML', () => {
    const booking = bookingView({
      totalCents: 9900,
      extras: JSON.stringify([{ extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 }]),
      answers: JSON.stringify([
        { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: '<img src=x onerror=alert(1)>' },
        { questionId: 'q_waiver', label: 'Waiver', type: 'CHECKBOX', value: false },
      ]),
    });
    const m = composeOperatorNotice(notice({ booking }));
    expect(m.text).toContain('Participants: 3\nExtras: 2 × Lunch\nTotal: 99.00 EUR');
    expect(m.text).toContain('Answers:\nDietary needs: <img src=x onerror=alert(1)>\nWaiver: No\n');
    expect(m.html).toContain('&#60;img src=x onerror=alert(1)&#62;');
    expect(m.html).not.toContain('<img src=x');
    expect(composeOperatorNotice(notice()).text).not.toMatch(/Extras|Answers/);
  });

  it('keeps strangers’ text out of the headers and escaped in HTML', () => {
    const m = composeOperatorNotice(notice({ booking: bookingView({ guestName: '<script>x</script>', experienceName: 'Walk\r\nBcc: x@evil.example' }) }));
    expect(m.subject).not.toMatch(/[\r\n]/);
    expect(m.html).not.toContain('<script>');
    expect(() => composeOperatorNotice(notice({ to: 'a@b.example, c@d.example' }))).toThrow(/one address/);
  });
});

describe('composeUserInvite', () => {
  it('carries the setup link, in the organization’s name and brand', () => {
    const m = composeUserInvite({
      user: { name: 'Nuno', email: 'nuno@lisbonwalks.example', role: 'staff' },
      organization: { ...ORGANIZATION, brandColor: '#AA3300', logoUrl: 'https://cdn.example.com/l.png?a=1&b=2' },
      setupUrl: 'https://book.example.com/dashboard/setup#tok',
      validHours: 72,
      messageId: 'msg_01JTESTINVITE0000000000',
      host: HOST,
    });
    expect(m.subject).toBe("You're invited to Lisbon Walks on Outing");
    expect(m.text).toContain('https://book.example.com/dashboard/setup#tok');
    expect(m.text).toContain('72 hours');
    expect(m.html).toContain('#aa3300');
    expect(m.html).toContain('<img src="https://cdn.example.com/l.png?a=1&#38;b=2" alt="Lisbon Walks"');
    expect(m.headers['Reply-To']).toBe(ORGANIZATION.email);
  });
});

describe('the brand of guest e-mails', () => {
  it('uses the brand colour as accent and shows an https logo, alt the organization’s name', () => {
    const m = composeGuestMessage(messageInput({ organization: { ...ORGANIZATION, name: 'Walks "&" Co', brandColor: '#0B7285', logoUrl: 'https://cdn.example.com/logo.png' } }));
    expect(m.html).toContain('border-top:4px solid #0b7285');
    expect(m.html).toContain('<h1 style="font-size:20px;color:#0b7285">');
    expect(m.html).toContain('<img src="https://cdn.example.com/logo.png" alt="Walks &#34;&#38;&#34; Co"');
    expect(m.fromName).toBe('Walks "&" Co');
  });

  it('shows no logo that is not https and no colour that is not one', () => {
    for (const logoUrl of ['http://cdn.example.com/logo.png', 'javascript:alert(1)', 'not a url', null]) {
      expect(composeGuestMessage(messageInput({ organization: { ...ORGANIZATION, logoUrl } })).html).not.toContain('<img');
    }
    const m = composeGuestMessage(messageInput({ organization: { ...ORGANIZATION, brandColor: 'red;background:url(x)' } }));
    expect(m.html).not.toContain('url(x)');
    expect(m.html).toContain('#1a1a1a');
  });
});

describe('fromHeader', () => {
  it('puts the organization’s name on MAIL_FROM’s address', () => {
    expect(fromHeader('Outing <no-reply@book.example.com>', 'Lisbon Walks')).toEqual({ name: 'Lisbon Walks', address: 'no-reply@book.example.com' });
    expect(fromHeader('no-reply@book.example.com', 'Ação "Tours"')).toEqual({ name: 'Ação "Tours"', address: 'no-reply@book.example.com' });
    expect(fromHeader('Outing <no-reply@book.example.com>', 'Line\r\nBcc: x@evil.example')).toEqual({ name: 'Line Bcc: x@evil.example', address: 'no-reply@book.example.com' });
    expect(fromHeader('Outing <no-reply@book.example.com>', undefined)).toBe('Outing <no-reply@book.example.com>');
    expect(fromHeader('Outing <no-reply@book.example.com>', '  ')).toBe('Outing <no-reply@book.example.com>');
  });
});
