import { describe, expect, it } from 'vitest';
import { composeWaitlistMessage, type WaitlistMailInput } from './waitlist.js';

const input = (more: Partial<WaitlistMailInput> = {}, entry: Partial<WaitlistMailInput['entry']> = {}): WaitlistMailInput => ({
  kind: 'WAITLIST_OFFER',
  locale: 'en',
  entry: {
    guestName: 'Ana <b>Costa</b>',
    experienceName: 'Sunset & <i>caves</i>',
    slotStart: Date.parse('2026-07-04T16:30:00.000Z'),
    slotEnd: Date.parse('2026-07-04T18:30:00.000Z'),
    tickets: [],
    participants: 2,
    position: null,
    totalCents: 9000,
    currency: 'EUR',
    offerExpiresAt: Date.parse('2026-07-02T21:15:00.000Z'),
    ...entry,
  },
  timeZone: 'Europe/Lisbon',
  organization: { name: 'Cliffside\r\nBcc: x@evil.example', email: 'hello@cliffside.example.com', phone: '+351 282 000 000' },
  offerUrl: 'https://book.example.com/manage#abcDEF123_-abcDEF123_-abcDEF123_-abcDEF123_',
  to: 'ana@example.com',
  messageId: 'msg_7Hq2',
  host: 'book.example.com',
  ...more,
});

describe('the waitlist e-mails', () => {
  it('offer: experience, local time with its zone, party, total, expiry and the link in both parts; strangers’ text escaped', () => {
    const mail = composeWaitlistMessage(input());
    expect(mail.subject).toBe('Places are free for you: Sunset & <i>caves</i>, 4 July, 17:30');
    expect(mail.fromName).toBe('Cliffside Bcc: x@evil.example');
    expect(mail.headers).toEqual({ 'Message-ID': '<msg_7Hq2@book.example.com>', 'Reply-To': 'hello@cliffside.example.com', 'Content-Language': 'en' });
    expect(mail.text).toContain('Hello Ana <b>Costa</b>,');
    expect(mail.text).toContain('Date and time: Saturday, 4 July 2026, 17:30–19:30 (Europe/Lisbon, UTC+1)');
    expect(mail.text).toContain('Participants: 2 participants');
    expect(mail.text).toContain('Total: €90.00');
    expect(mail.text).toContain('Held for you until: Thursday, 2 July 2026, 22:15 (Europe/Lisbon, UTC+1)');
    expect(mail.text).toContain('https://book.example.com/manage#abcDEF123_-abcDEF123_-abcDEF123_-abcDEF123_');
    expect(mail.text).not.toContain('number');
    expect(mail.html).toContain('href="https://book.example.com/manage#abcDEF123_-abcDEF123_-abcDEF123_-abcDEF123_"');
    expect(mail.html).toContain('Ana &#60;b&#62;Costa&#60;/b&#62;');
    expect(mail.html).toContain('Sunset &#38; &#60;i&#62;caves&#60;/i&#62;');
    expect(mail.html).not.toContain('<b>Costa');
    expect(mail.html).toContain('<html lang="en">');
    expect(mail.attachments).toEqual([]);
  });

  it('joined: the position and no link; tickets named', () => {
    const mail = composeWaitlistMessage(input({ kind: 'WAITLIST_JOINED', offerUrl: undefined }, { position: 2, tickets: [{ name: 'Adult', quantity: 2 }, { name: 'Child', quantity: 1 }], offerExpiresAt: null }));
    expect(mail.subject).toBe('On the waitlist: Sunset & <i>caves</i>, 4 July, 17:30');
    expect(mail.text).toContain('Waitlist: You are number 2 on the waitlist');
    expect(mail.text).toContain('Tickets: 2 × Adult, 1 × Child');
    expect(mail.text).not.toMatch(/https?:|Total/);
    expect(mail.html).not.toMatch(/href=|Total/);
    expect(mail.html).toContain('You are number 2 on the waitlist');
  });

  it('speaks Portuguese: words, dates and money', () => {
    const offer = composeWaitlistMessage(input({ locale: 'pt' }));
    expect(offer.subject).toBe('Há lugares para si: Sunset & <i>caves</i>, 4 de julho, 17:30');
    expect(offer.text).toContain('Olá Ana <b>Costa</b>,');
    expect(offer.text).toContain('Total: 90,00\u00a0€');
    expect(offer.text).toContain('Guardados até: quinta-feira, 2 de julho de 2026, 22:15 (Europe/Lisbon, UTC+1)');
    expect(offer.html).toContain('<html lang="pt">');
    const joined = composeWaitlistMessage(input({ locale: 'pt', kind: 'WAITLIST_JOINED' }, { position: 1 }));
    expect(joined.text).toContain('É o número 1 na lista de espera');
  });

  it('refuses an offer without its link or expiry, and a recipient that is not one address', () => {
    expect(() => composeWaitlistMessage(input({ offerUrl: undefined }))).toThrow(/link/);
    expect(() => composeWaitlistMessage(input({ offerUrl: 'javascript:alert(1)' }))).toThrow(/http/);
    expect(() => composeWaitlistMessage(input({}, { offerExpiresAt: null }))).toThrow(/expiry/);
    expect(() => composeWaitlistMessage(input({ to: 'a@example.com, b@example.com' }))).toThrow(/one address/);
  });
});
