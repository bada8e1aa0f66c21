import { describe, expect, it } from 'vitest';
import { renderBookingsFeed } from '../ical/feed.js';
import { composeGuestMessage, escapeHtml, GUEST_MESSAGE_KINDS, guestCalendarFile, oneLine } from './compose.js';
import { bookingView, eventsOf, HOST, MANAGE_URL, messageInput, startOf, TICKETS } from './test-helpers/guest.js';

const feedEventOf = (booking = bookingView()) => eventsOf(renderBookingsFeed({ calendarName: 'Guides', host: HOST, bookings: [booking] }))[0]!;
const icsOf = (message: ReturnType<typeof composeGuestMessage>) => message.attachments.find((a) => a.filename === 'booking.ics');

describe('composeGuestMessage', () => {
  it('confirms a booking with its experience, local time and zone, party, total, number, contact and manage link', () => {
    const m = composeGuestMessage(messageInput());
    expect(m.to).toBe('eve@example.com');
    expect(m.subject).toBe('Booking confirmed: Alfama Walk, 1 July, 10:00');
    expect(m.headers).toEqual({ 'Message-ID': '<msg_01JTESTMESSAGE000000000@book.example.com>', 'Reply-To': 'hello@lisbonwalks.example', 'Content-Language': 'en' });
    expect(m.text).toBe(
      [
        'Hello Eve Adams,',
        '',
        'Thank you for your booking. Here are the details.',
        '',
        'Experience: Alfama Walk',
        'Date and time: Thursday, 1 July 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)',
        'Participants: 3 participants',
        'Total: €75.00',
        'Booking number: OUT-7K2M9Q',
        '',
        'See, change or cancel your booking:',
        MANAGE_URL,
        '',
        'Open the attached booking.ics to add it to your calendar.',
        '',
        'Questions? Reply to this e-mail or contact us:',
        'Lisbon Walks',
        'hello@lisbonwalks.example',
        '+351 210 000 000',
        '',
      ].join('\n'),
    );
    expect(m.html).toContain('<td style="padding:4px 0">Thursday, 1 July 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)</td>');
    expect(m.html).toContain(`<a href="${MANAGE_URL}" style="color:#1a1a1a">See, change or cancel your booking</a>`);
    expect(m.html).toContain('<html lang="en">');
  });

  it('attaches booking.ics with the feed’s UID, SEQUENCE, times and status for that booking', () => {
    const booking = bookingView({ sequence: 3, updatedAt: Date.parse('2027-06-20T08:00:00Z') });
    const m = composeGuestMessage(messageInput({ booking }));
    expect(m.attachments).toHaveLength(1);
    const ics = icsOf(m)!;
    expect(ics.contentType).toBe('text/calendar; charset=utf-8; method=PUBLISH');
    expect(ics.content.endsWith('END:VCALENDAR\r\n')).toBe(true);
    const events = eventsOf(ics.content);
    expect(events).toHaveLength(1);
    const event = events[0]!;
    const feed = feedEventOf(booking);
    for (const name of ['uid', 'sequence', 'status']) expect(event.getFirstPropertyValue(name)).toEqual(feed.getFirstPropertyValue(name));
    expect(event.getFirstPropertyValue('uid')).toBe('bkg_01JTESTBOOKING0000000000@book.example.com');
    expect(event.getFirstPropertyValue('sequence')).toBe(3);
    expect(startOf(event)).toBe('2027-07-01T09:00:00.000Z');
    expect(event.getFirstPropertyValue('summary')).toBe('Alfama Walk');
    expect(event.getFirstPropertyValue('url')).toBe(MANAGE_URL);
  });

  it('names the local time on both sides of a DST change', () => {
    const lisbonWinter = bookingView({ slotStart: Date.parse('2027-01-14T10:00:00Z'), slotEnd: Date.parse('2027-01-14T12:00:00Z') });
    expect(composeGuestMessage(messageInput({ booking: lisbonWinter })).text).toContain(
      'Date and time: Thursday, 14 January 2027, 10:00–12:00 (Europe/Lisbon, UTC+0)',
    );
    // New York moves its clocks on 14 March 2027: 10:00 is 15:00 UTC the day before, 14:00 UTC that day.
    const before = bookingView({ slotStart: Date.parse('2027-03-13T15:00:00Z'), slotEnd: Date.parse('2027-03-13T16:30:00Z') });
    const after = bookingView({ slotStart: Date.parse('2027-03-14T14:00:00Z'), slotEnd: Date.parse('2027-03-14T15:30:00Z') });
    const ny = { timeZone: 'America/New_York' };
    expect(composeGuestMessage(messageInput({ ...ny, booking: before })).text).toContain('Saturday, 13 March 2027, 10:00–11:30 (America/New_York, UTC-5)');
    expect(composeGuestMessage(messageInput({ ...ny, booking: after })).text).toContain('Sunday, 14 March 2027, 10:00–11:30 (America/New_York, UTC-4)');
    const kolkata = composeGuestMessage(messageInput({ timeZone: 'Asia/Kolkata' })).text;
    expect(kolkata).toContain('Thursday, 1 July 2027, 14:30–16:30 (Asia/Kolkata, UTC+5:30)');
  });

  it('lists tickets instead of participants, with their total', () => {
    const booking = bookingView({ tickets: TICKETS, participants: 3, places: 3, totalCents: 7500, unitPrice: 0 });
    const m = composeGuestMessage(messageInput({ booking }));
    expect(m.text).toContain('Tickets: 2 × Adult, 1 × Child\n');
    expect(m.text).not.toContain('Participants:');
    expect(m.text).toContain('Total: €75.00');
    expect(m.html).toContain('<td style="padding:4px 0">2 × Adult, 1 × Child</td>');
  });

  it('writes Portuguese for a pt booking', () => {
    const m = composeGuestMessage(messageInput({ locale: 'pt' }));
    expect(m.subject).toBe('Reserva confirmada: Alfama Walk, 1 de julho, 10:00');
    expect(m.text).toContain('Olá Eve Adams,\n\nObrigado pela sua reserva. Seguem os detalhes.');
    expect(m.text).toContain('Data e hora: quinta-feira, 1 de julho de 2027, 10:00–12:00 (Europe/Lisbon, UTC+1)');
    expect(m.text).toContain('Participantes: 3 participantes');
    expect(m.text).toContain('Total: 75,00\u00a0€');
    expect(m.text).toContain('Número da reserva: OUT-7K2M9Q');
    expect(m.text).toContain(`Ver, alterar ou cancelar a reserva:\n${MANAGE_URL}`);
    expect(m.html).toContain('<html lang="pt">');
    expect(m.html).toContain('A sua reserva está confirmada');
    const cancelled = composeGuestMessage(messageInput({ locale: 'pt', kind: 'BOOKING_CANCELLED', booking: bookingView({ participants: 1, status: 'CANCELLED' }) }));
    expect(cancelled.subject).toBe('Reserva cancelada: Alfama Walk, 1 de julho, 10:00');
    expect(cancelled.text).toContain('Participantes: 1 participante\n');
  });

  it('leaves the manage link and the calendar out of a cancellation, and the calendar out of a reminder', () => {
    const cancelled = composeGuestMessage(messageInput({ kind: 'BOOKING_CANCELLED', booking: bookingView({ status: 'CANCELLED' }) }));
    expect(cancelled.subject).toBe('Booking cancelled: Alfama Walk, 1 July, 10:00');
    expect(cancelled.text).not.toContain('/manage');
    expect(cancelled.html).not.toContain('/manage');
    expect(cancelled.text).not.toContain('booking.ics');
    expect(cancelled.attachments).toEqual([]);
    expect(cancelled.text).toContain('Booking number: OUT-7K2M9Q');

    const reminder = composeGuestMessage(messageInput({ kind: 'BOOKING_REMINDER' }));
    expect(reminder.subject).toBe('Reminder: Alfama Walk, 1 July, 10:00');
    expect(reminder.text).toContain(MANAGE_URL);
    expect(reminder.attachments).toEqual([]);

    const changed = composeGuestMessage(messageInput({ kind: 'BOOKING_CHANGED', booking: bookingView({ sequence: 1 }) }));
    expect(changed.subject).toBe('Booking changed: Alfama Walk, 1 July, 10:00');
    expect(eventsOf(icsOf(changed)!.content)[0]!.getFirstPropertyValue('sequence')).toBe(1);
  });

  describe('a booking with extras and answers', () => {
    const extras = JSON.stringify([
      { extraId: 'ex_lunch', name: 'Lunch', per: 'PERSON', quantity: 2, unitPrice: 1200 },
      { extraId: 'ex_photos', name: 'Photos', per: 'BOOKING', quantity: 1, unitPrice: 2500 },
      { extraId: 'ex_map', name: 'Map', per: 'BOOKING', quantity: 1, unitPrice: 0 },
    ]);
    const answers = JSON.stringify([
      { questionId: 'q_diet', label: 'Dietary needs', type: 'TEXT', value: '<script>alert("x")</script> & nuts' },
      { questionId: 'q_waiver', label: 'I accept the waiver', type: 'CHECKBOX', value: true },
      { questionId: 'q_towel', label: 'Needs a towel', type: 'CHECKBOX', value: false },
      { questionId: 'q_weight', label: 'Weight <kg>', type: 'NUMBER', value: 72.5 },
    ]);
    const booking = bookingView({ extras, answers, totalCents: 7500 + 2400 + 2500 });

    it('lists each extra with its amount beside the party, the total, then the answers', () => {
      const m = composeGuestMessage(messageInput({ booking }));
      expect(m.text).toContain(
        [
          'Participants: 3 participants',
          'Extras: 2 × Lunch (€24.00), 1 × Photos (€25.00), 1 × Map (€0.00)',
          'Total: €124.00',
          'Booking number: OUT-7K2M9Q',
          '',
          'Your answers:',
          'Dietary needs: <script>alert("x")</script> & nuts',
          'I accept the waiver: Yes',
          'Needs a towel: No',
          'Weight <kg>: 72.5',
          '',
        ].join('\n'),
      );
      expect(m.html).toContain('<td style="padding:4px 0">2 × Lunch (€24.00), 1 × Photos (€25.00), 1 × Map (€0.00)</td>');
      expect(m.html).toContain('<h2 style="font-size:16px;margin:16px 0 4px">Your answers</h2>');
      expect(m.html).toContain('&#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; nuts');
      expect(m.html).toContain('>Weight &#60;kg&#62;</th><td style="padding:4px 0">72.5</td>');
      expect(m.html).not.toContain('<script>');
      expect(m.html).not.toContain('<kg>');
    });

    it('speaks Portuguese: Sim and Não, amounts with a comma', () => {
      const m = composeGuestMessage(messageInput({ booking, locale: 'pt' }));
      expect(m.text).toContain('Extras: 2 × Lunch (24,00\u00a0€), 1 × Photos (25,00\u00a0€), 1 × Map (0,00\u00a0€)\nTotal: 124,00\u00a0€');
      expect(m.text).toContain('As suas respostas:\nDietary needs: <script>alert("x")</script> & nuts\nI accept the waiver: Sim\nNeeds a towel: Não\n');
      expect(m.html).toContain('>As suas respostas</h2>');
      expect(m.html).toContain('>I accept the waiver</th><td style="padding:4px 0">Sim</td>');
    });

    it('shows them in every kind of e-mail, the cancellation too', () => {
      for (const kind of GUEST_MESSAGE_KINDS) {
        const m = composeGuestMessage(messageInput({ kind, booking: bookingView({ extras, answers, totalCents: 12400, status: kind === 'BOOKING_CANCELLED' ? 'CANCELLED' : 'CONFIRMED' }) }));
        expect(m.text).toContain('Extras: 2 × Lunch (€24.00)');
        expect(m.text).toContain('I accept the waiver: Yes');
      }
    });

    it('puts the extras in booking.ics and keeps the answers out of it', () => {
      const ics = icsOf(composeGuestMessage(messageInput({ booking })))!.content;
      const description = String(eventsOf(ics)[0]!.getFirstPropertyValue('description'));
      expect(description).toContain('Extras: 2 × Lunch (€24.00), 1 × Photos (€25.00), 1 × Map (€0.00)');
      const unfolded = ics.replace(/\r\n[ \t]/g, '');
      for (const hidden of ['Dietary', 'nuts', 'waiver', 'Your answers']) expect(unfolded).not.toContain(hidden);
      const file = guestCalendarFile({ locale: 'pt', booking, host: HOST });
      expect(String(eventsOf(file)[0]!.getFirstPropertyValue('description'))).toContain('Extras: 2 × Lunch, 1 × Photos, 1 × Map');
      for (const hidden of ['Dietary', 'nuts', 'waiver']) expect(file.replace(/\r\n[ \t]/g, '')).not.toContain(hidden);
    });

    it('shows nothing of either for a booking without them', () => {
      const m = composeGuestMessage(messageInput({ booking: bookingView({ extras: '[]', answers: null }) }));
      expect(m.text).not.toContain('Extras');
      expect(m.text).not.toContain('Your answers');
      expect(m.html).not.toContain('Your answers');
    });
  });

  it('has words for every kind in every language', () => {
    for (const kind of GUEST_MESSAGE_KINDS) {
      for (const locale of ['en', 'pt'] as const) {
        const m = composeGuestMessage(messageInput({ kind, locale }));
        expect(m.subject).toMatch(/^[A-Z][^:]+: Alfama Walk, 1 (July|de julho), 10:00$/);
        expect(m.text).not.toContain('undefined');
      }
    }
  });

  it('marks a booking still awaiting payment', () => {
    const m = composeGuestMessage(messageInput({ kind: 'BOOKING_CHANGED', booking: bookingView({ status: 'PENDING' }) }));
    expect(m.text).toContain('Booking number: OUT-7K2M9Q (awaiting payment)');
    expect(eventsOf(icsOf(m)!.content)[0]!.getFirstPropertyValue('status')).toBe('TENTATIVE');
  });

  it('keeps a hostile name, experience or organization from adding a header, breaking the HTML or the calendar', () => {
    const evil = 'Eve\r\nBcc: victim@example.com\r\n\r\n<script>alert("x")</script> & \'co\'';
    const booking = bookingView({ guestName: evil, experienceName: 'Walk\r\nX-Injected: 1\n<b>bold</b>' });
    const organization = { name: 'Org <img src=x onerror=alert(1)>', email: 'ops@example.com\r\nBcc: evil@example.com', phone: '1\r\n2' };
    const m = composeGuestMessage(messageInput({ booking, organization }));
    expect(m.subject).toBe('Booking confirmed: Walk X-Injected: 1 <b>bold</b>, 1 July, 10:00');
    for (const value of [m.subject, ...Object.values(m.headers), m.to]) expect(value).not.toMatch(/[\r\n]/);
    // A Reply-To that is not one plain address is left out rather than repaired.
    expect(m.headers['Reply-To']).toBeUndefined();
    expect(m.html).not.toContain('<script>');
    expect(m.html).not.toContain('<b>bold');
    expect(m.html).not.toContain('<img');
    expect(m.html).toContain('Hello Eve Bcc: victim@example.com &#60;script&#62;alert(&#34;x&#34;)&#60;/script&#62; &#38; &#39;co&#39;,');
    expect(m.text).toContain('Hello Eve Bcc: victim@example.com <script>alert("x")</script> & \'co\',\n');
    const ics = icsOf(m)!.content;
    expect(ics.split('\r\n').filter((line) => /^(X-INJECTED|BCC)/i.test(line))).toEqual([]);
    expect(eventsOf(ics)).toHaveLength(1);
  });

  it('refuses a message id, host or manage link that could not be written safely', () => {
    expect(() => composeGuestMessage(messageInput({ messageId: 'msg_1>\r\nBcc: x' }))).toThrow(/message id/);
    expect(() => composeGuestMessage(messageInput({ host: 'evil.example>\r\nX: 1' }))).toThrow(/host/);
    expect(() => composeGuestMessage(messageInput({ manageUrl: 'javascript:alert(1)' }))).toThrow(/http/);
    expect(() => composeGuestMessage(messageInput({ booking: bookingView({ guestEmail: 'a@example.com, b@example.com' }) }))).toThrow(/one address/);
    expect(composeGuestMessage(messageInput({ host: 'localhost:3000' })).headers['Message-ID']).toBe('<msg_01JTESTMESSAGE000000000@localhost>');
  });

  it('greets a reseller’s guest given without a name in every language, and never composes without an address', () => {
    const greetings = { en: 'Hello,', pt: 'Olá,', es: 'Hola:', fr: 'Bonjour,', de: 'Guten Tag,', it: 'Gentile cliente,', nl: 'Beste gast,' } as const;
    for (const [locale, greeting] of Object.entries(greetings)) {
      const m = composeGuestMessage(messageInput({ locale: locale as keyof typeof greetings, booking: bookingView({ guestName: null, source: 'OCTO' }) }));
      expect(m.text.split('\n')[0], locale).toBe(greeting);
      expect(m.html, locale).toContain(`<p>${greeting}</p>`);
    }
    expect(() => composeGuestMessage(messageInput({ booking: bookingView({ guestEmail: null }) }))).toThrow(/no guest e-mail/);
  });

  it('gives the same message for the same input, so a retry sends what the first attempt did', () => {
    expect(composeGuestMessage(messageInput())).toEqual(composeGuestMessage(messageInput()));
  });

  it('escapes for HTML and folds to one line', () => {
    expect(escapeHtml('<a href="x">&\'</a>')).toBe('&#60;a href=&#34;x&#34;&#62;&#38;&#39;&#60;/a&#62;');
    expect(oneLine(' a\r\nb\u2028c\t\td ')).toBe('a b c d');
  });
});
