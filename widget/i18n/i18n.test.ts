import { describe, expect, it } from 'vitest';
import { pickLanguage } from './catalogs.js';
import { en } from './en.js';
import { en as giftEn } from '../gift/texts.js';
import { createFormats, fill } from './format.js';
import { chooseLanguage } from './index.js';
import pt from './pt.json' with { type: 'json' };
import { codeTexts } from '../codes/texts.js';
import { en as guestInfoEn } from '../confirm/texts.js';
import { en as formEn } from '../form/texts.js';
import { waitlistTexts } from '../waitlist/texts.js';

/** Every key of a catalog, nested ones as `errors.network`, with the placeholders its text holds. */
function shape(texts: object, prefix = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(texts)) {
    const name = prefix + key;
    // A plural's forms are the language's own (English may have one text for all): compare `other`.
    if (typeof value === 'object' && value !== null && 'other' in value) Object.assign(out, shape({ [key]: value.other }, prefix));
    else if (typeof value === 'object' && value !== null) Object.assign(out, shape(value as object, `${name}.`));
    else out[name] = (String(value).match(/\{\d\}/g) ?? []).sort().join(' ');
  }
  return out;
}

describe('languages', () => {
  it('picks by primary subtag and keeps the region for Intl', () => {
    expect(chooseLanguage(['pt-BR'])).toEqual({ locale: 'pt-BR', code: 'pt' });
    expect(chooseLanguage(['de-DE', 'pt'])).toEqual({ locale: 'pt', code: 'pt' });
    expect(chooseLanguage(['en-GB'])).toEqual({ locale: 'en-GB', code: 'en' });
    expect(pickLanguage(['pt-PT'])).toEqual({ locale: 'pt-PT', code: 'pt', messages: pt });
  });

  it('falls back to English for unknown and malformed tags', () => {
    expect(chooseLanguage(['fr'])).toEqual({ locale: 'en', code: 'en' });
    expect(chooseLanguage(['not a tag!'])).toEqual({ locale: 'en', code: 'en' });
    expect(chooseLanguage([])).toEqual({ locale: 'en', code: 'en' });
    expect(pickLanguage([])).toEqual({ locale: 'en', code: 'en', messages: en });
  });

  it('labels the form as the contract says in English', () => {
    expect([en.participants, en.name, en.email, en.book]).toEqual(['Participants', 'Name', 'E-mail', 'Book']);
  });

  it('has every English text in Portuguese, naming the same values', () => {
    const { codes, form, guestInfo, giftVoucher, waitlist, ...rest } = pt;
    expect(shape(rest)).toEqual(shape(en));
    // The chunks' English travels with each chunk (widget/codes/texts.ts, form/texts.ts,
    // confirm/texts.ts, gift/texts.ts, waitlist/texts.ts); Portuguese is here.
    expect(shape(codes)).toEqual(shape(codeTexts(en)));
    expect(shape(form)).toEqual(shape(formEn));
    expect(shape(guestInfo)).toEqual(shape(guestInfoEn));
    expect(shape(giftVoucher)).toEqual(shape(giftEn));
    expect(shape(waitlist)).toEqual(shape(waitlistTexts(en)));
  });

  it('counts places in both languages', () => {
    const [e, p] = [createFormats('en'), createFormats('pt-PT')];
    expect([e.count(en.placesLeft, 1), e.count(en.placesLeft, 3)]).toEqual(['1 place left', '3 places left']);
    expect([p.count(pt.placesLeft, 1), p.count(pt.placesLeft, 3)]).toEqual(['Resta 1 lugar', 'Restam 3 lugares']);
    expect([p.count(pt.agesUnder, 1), p.count(pt.agesUnder, 3)]).toEqual(['Menos de 1 ano', 'Menos de 3 anos']);
    // One text for every number; and a plural without the form asked for says `other`.
    expect(e.count('Under {0}', 3)).toBe('Under 3');
    expect(e.count({ other: '{0} left' }, 1)).toBe('1 left');
  });

  it('fills the values a text names, in order', () => {
    expect(fill(en.step, 2, 4)).toBe('Step 2 of 4');
    expect(fill('{1} before {0}', 'a', 'b')).toBe('b before a');
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
