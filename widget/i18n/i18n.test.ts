import { describe, expect, it } from 'vitest';
import { en } from './en.js';
import { createFormats } from './format.js';
import { pickLanguage } from './index.js';
import { pt } from './pt.js';

describe('languages', () => {
  it('picks by primary subtag and keeps the region for Intl', () => {
    expect(pickLanguage(['pt-BR'])).toEqual({ locale: 'pt-BR', messages: pt });
    expect(pickLanguage(['de-DE', 'pt'])).toEqual({ locale: 'pt', messages: pt });
    expect(pickLanguage(['en-GB'])).toEqual({ locale: 'en-GB', messages: en });
  });

  it('falls back to English for unknown and malformed tags', () => {
    expect(pickLanguage(['fr'])).toEqual({ locale: 'en', messages: en });
    expect(pickLanguage(['not a tag!'])).toEqual({ locale: 'en', messages: en });
    expect(pickLanguage([])).toEqual({ locale: 'en', messages: en });
  });

  it('labels the form as the contract says in English', () => {
    expect([en.participants, en.name, en.email, en.book]).toEqual(['Participants', 'Name', 'E-mail', 'Book']);
  });

  it('counts places in both languages', () => {
    expect([en.placesLeft(1), en.placesLeft(3)]).toEqual(['1 place left', '3 places left']);
    expect([pt.placesLeft(1), pt.placesLeft(3)]).toEqual(['Resta 1 lugar', 'Restam 3 lugares']);
  });

  it('says a price category’s ages in both languages, and nothing when none are set', () => {
    const ages: [number | null, number | null][] = [[4, 17], [null, 2], [0, 2], [18, null], [null, 0], [null, null]];
    expect(ages.map(([min, max]) => en.ages(min, max))).toEqual(['Ages 4–17', 'Under 3', 'Under 3', '18+', 'Under 1', '']);
    expect(ages.map(([min, max]) => pt.ages(min, max))).toEqual(['4–17 anos', 'Menos de 3 anos', 'Menos de 3 anos', '18+ anos', 'Menos de 1 ano', '']);
  });
});

describe('formats', () => {
  it('formats money, durations, dates and zones in the locale', () => {
    const f = createFormats('en');
    expect(f.money(90, 'USD')).toBe('$90.00');
    expect(f.duration(150)).toBe('2 hr 30 min');
    expect(f.longDate('2026-12-05')).toBe('Saturday, December 5, 2026');
    expect(f.month('2026-12')).toBe('December 2026');
    expect(f.weekdays[0]).toEqual(['Mon', 'Monday']);
    expect(f.zone('2026-07-01T09:00:00.000Z', 'Europe/Lisbon')).toBe('Lisbon (Western European Summer Time)');
    const p = createFormats('pt-PT');
    expect(p.money(90, 'EUR')).toMatch(/^90,00\s€$/);
    expect(p.longDate('2026-12-05')).toBe('sábado, 5 de dezembro de 2026');
  });
});
