import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { ChunkScript } from './chunks.js';
import { forms, type FormsChunk } from './forms.js';
import { googleCalendarUrl, icsFile, utcStamp } from './confirm/calendar.js';
import { fill, mountForTest as setup, pinned, toDetails, useWidgetTests, type WidgetUnderTest } from './test-helpers/widget-under-test.js';
import { walk } from './test-helpers/fake-outing.js';

useWidgetTests();

const guided = {
  ...walk,
  meetingPoint: 'Largo do Chafariz de Dentro\nby the fountain',
  meetingPointUrl: 'https://maps.example.com/?q=alfama&z=17',
  guestInstructions: 'Wear good shoes; bring water.',
};

/**
 * What a browser does with the script widget.js adds: it fetches /widget/forms.js (whose `confirmation` is
 * this part), runs it
 * (the chunk hands its function to its <script>) and fires `load`. happy-dom runs no fetched script,
 * so the test plays that part with the chunk's own function; widget.js's side is the real one.
 */
async function chunkArrives(): Promise<ChunkScript<FormsChunk>> {
  const script = await waitFor(() => {
    const found = document.head.querySelector<ChunkScript<FormsChunk>>('script[src="https://outing.test/widget/forms.js"]');
    if (!found) throw new Error('widget.js has not asked for its forms chunk');
    return found;
  });
  if (!script.outing) {
    script.outing = forms;
    script.dispatchEvent(new Event('load'));
  }
  return script;
}

async function bookThrough(s: WidgetUnderTest): Promise<void> {
  await toDetails(s);
  fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
  fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
  await s.ui.findByRole('heading', { name: 'Booking confirmed' });
}

describe('the confirmation’s guest information and Add to calendar', () => {
  it('loads its chunk once confirmed, from widget.js’s server, and shows the meeting point, map link and instructions', async () => {
    const s = setup(pinned, { experiences: [guided] });
    await toDetails(s);
    // Nothing is fetched before there is a confirmed booking to show.
    expect(document.head.querySelector('script[src$="/widget/forms.js"]')).toBeNull();
    fill(s, { Name: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    await chunkArrives();

    await s.ui.findByRole('heading', { name: 'Meeting point', level: 3 });
    const place = s.ui.getByText(/Largo do Chafariz de Dentro/);
    // The operator's line break is a <br>, not an inline style.
    expect(place.innerHTML).toBe('Largo do Chafariz de Dentro<br>by the fountain');
    const map = s.ui.getByRole('link', { name: 'Open the map (opens in a new tab)' });
    expect(map.getAttribute('href')).toBe('https://maps.example.com/?q=alfama&z=17');
    expect(map.getAttribute('rel')).toBe('noopener noreferrer');
    expect(s.ui.getByRole('heading', { name: 'Before you come', level: 3 })).toBeTruthy();
    expect(s.ui.getByText('Wear good shoes; bring water.')).toBeTruthy();
    expect(s.ui.getByRole('heading', { name: 'Add to calendar', level: 3 })).toBeTruthy();
  });

  it('links to Google Calendar and hands over the .ics as a Blob named after the booking', async () => {
    const s = setup(pinned, { experiences: [guided] });
    await bookThrough(s);
    await chunkArrives();
    const google = await s.ui.findByRole('link', { name: 'Google Calendar (opens in a new tab)' });
    expect(google.getAttribute('href')).toBe(
      'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Alfama%20at%20Dawn&dates=20261202T090000Z/20261202T110000Z' +
        '&location=Largo%20do%20Chafariz%20de%20Dentro%0Aby%20the%20fountain&details=BK-TEST0001',
    );
    expect(google.getAttribute('target')).toBe('_blank');

    const blobs: Blob[] = [];
    const created = vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
      blobs.push(blob as Blob);
      return `blob:https://tours.example/${blobs.length}`;
    });
    const revoked = vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {});
    // The browser would save the file; happy-dom would navigate to it, which the test stops after the widget's handler ran.
    const stay = (e: Event) => e.preventDefault();
    document.addEventListener('click', stay);
    const ics = s.ui.getByRole('link', { name: 'Download .ics file' }) as HTMLAnchorElement;
    expect(ics.getAttribute('download')).toBe('BK-TEST0001.ics');
    fireEvent.click(ics);
    expect(ics.getAttribute('href')).toBe('blob:https://tours.example/1');
    expect(blobs[0]!.type).toBe('text/calendar;charset=utf-8');
    const text = await blobs[0]!.text();
    expect(text).toContain('\r\nUID:BK-TEST0001@outing.test\r\n');
    expect(text).toContain('\r\nDTSTART:20261202T090000Z\r\nDTEND:20261202T110000Z\r\n');
    expect(text).toContain('\r\nSUMMARY:Alfama at Dawn\r\n');
    expect(text).toContain('\r\nLOCATION:Largo do Chafariz de Dentro\\nby the fountain\r\n');
    expect(text).toContain('\r\nDESCRIPTION:BK-TEST0001\\n\\nWear good shoes\\; bring water.\r\n');
    // A second click makes a fresh file and lets the first go.
    fireEvent.click(ics);
    expect(revoked).toHaveBeenCalledWith('blob:https://tours.example/1');
    expect(created).toHaveBeenCalledTimes(2);
    document.removeEventListener('click', stay);
  });

  it('shows only Add to calendar for an experience without guest information, and never links a map that is not https', async () => {
    const s = setup(pinned, { experiences: [{ ...walk, meetingPointUrl: 'javascript:alert(1)' }] });
    await bookThrough(s);
    await chunkArrives();
    await s.ui.findByRole('heading', { name: 'Add to calendar' });
    expect(s.ui.queryByRole('heading', { name: 'Meeting point' })).toBeNull();
    expect(s.ui.queryByRole('heading', { name: 'Before you come' })).toBeNull();
    expect(s.root.querySelector('a[href^="javascript:"]')).toBeNull();
    expect(s.ui.getByRole('link', { name: /Google Calendar/ }).getAttribute('href')).not.toContain('location=');
  });

  it('speaks Portuguese when the widget does', async () => {
    const s = setup({ ...pinned, locale: 'pt-PT' }, { experiences: [guided] });
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Escolha um horário' });
    fireEvent.click(s.ui.getAllByRole('button').find((b) => /^9:00|^09:00/.test(b.textContent ?? ''))!);
    await s.ui.findByRole('heading', { name: 'Os seus dados' });
    fill(s, { Nome: 'Ana Lima', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Reservar' }));
    await s.ui.findByRole('heading', { name: 'Reserva confirmada' });
    await chunkArrives();
    await s.ui.findByRole('heading', { name: 'Ponto de encontro' });
    expect(s.ui.getByRole('heading', { name: 'Antes de vir' })).toBeTruthy();
    expect(s.ui.getByRole('heading', { name: 'Adicionar ao calendário' })).toBeTruthy();
    expect(s.ui.getByRole('link', { name: 'Descarregar ficheiro .ics' })).toBeTruthy();
  });
});

describe('the calendar texts', () => {
  const booking = {
    bookingNumber: 'BK-7K3M9Q2D',
    experience: 'Kayak, caves; and "more" \\ fun',
    startTime: '2026-06-13T16:30:00.000Z',
    endTime: '2026-06-13T18:30:00.000Z',
    meetingPoint: null,
  };

  it('writes instants as YYYYMMDDTHHMMSSZ in UTC', () => {
    expect(utcStamp('2026-06-13T17:30:00.000+01:00')).toBe('20260613T163000Z');
  });

  it('escapes iCalendar TEXT, leaves LOCATION out without a meeting point, and folds long lines at 75 octets', () => {
    const text = icsFile({ ...booking, notes: `${'é'.repeat(60)}\r\nline` }, 'BK-7K3M9Q2D@outing.test', new Date('2026-06-01T10:15:00Z'));
    expect(text.endsWith('END:VCALENDAR\r\n')).toBe(true);
    expect(text).toContain('\r\nSUMMARY:Kayak\\, caves\\; and "more" \\\\ fun\r\n');
    expect(text).toContain('\r\nDTSTAMP:20260601T101500Z\r\n');
    expect(text).not.toContain('LOCATION');
    for (const line of text.split('\r\n')) expect(new TextEncoder().encode(line).length).toBeLessThanOrEqual(75);
    const unfolded = text.replace(/\r\n /g, '');
    expect(unfolded).toContain(`DESCRIPTION:BK-7K3M9Q2D\\n\\n${'é'.repeat(60)}\\nline\r\n`);
  });

  it('builds the Google link without a location when there is none', () => {
    expect(googleCalendarUrl(booking)).toBe(
      'https://calendar.google.com/calendar/render?action=TEMPLATE&text=Kayak%2C%20caves%3B%20and%20%22more%22%20%5C%20fun' +
        '&dates=20260613T163000Z/20260613T183000Z&details=BK-7K3M9Q2D',
    );
  });
});
