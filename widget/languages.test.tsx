import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { walk } from './test-helpers/fake-outing.js';
import { fill, mountForTest, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
import de from './i18n/de.json' with { type: 'json' };
import fr from './i18n/fr.json' with { type: 'json' };
import nl from './i18n/nl.json' with { type: 'json' };
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';

useWidgetTests();

const asked = (s: WidgetUnderTest) => s.outing.requests.map((r) => `${r.method} ${r.url.origin}${r.url.pathname}`);

describe('languages other than English', () => {
  it('fetches the language’s texts from widget.js’s server beside the first calls, and shows no step in English meanwhile', async () => {
    let arrive!: (v?: unknown) => void;
    const s = mountForTest({ ...pinned, locale: 'pt-PT', api: 'https://api.outing.test' }, { languagesAfter: new Promise((go) => (arrive = go)) });
    // The experience and its dates load meanwhile; nothing is said, in English or otherwise.
    await waitFor(() => expect(asked(s)).toHaveLength(3));
    await new Promise((wait) => setTimeout(wait, 20));
    const box = s.root.querySelector('.outing')!;
    expect(box.getAttribute('aria-busy')).toBe('true');
    expect(box.textContent).toBe('');
    expect(s.ui.queryByRole('heading')).toBeNull();

    arrive();
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    expect(s.root.querySelector('.outing')!.getAttribute('lang')).toBe('pt-PT');
    // widget.js's own server (the tests' https://outing.test), whatever data-api says; without a key or cookies.
    expect(asked(s)).toEqual([
      'GET https://outing.test/widget/pt.json',
      'GET https://api.outing.test/public/v1/experiences/exp_walk',
      'GET https://api.outing.test/public/v1/availability',
    ]);
    const file = s.outing.requests[0]!;
    expect(file.url.search).toBe('');
    expect(file.credentials).toBe('omit');
  });

  it('asks for nothing more in English', async () => {
    const s = mountForTest(pinned);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect(asked(s).filter((r) => r.includes('/widget/'))).toEqual([]);
  });

  it('fetches a language once for every widget of the page that speaks it', async () => {
    const one = mountForTest({ ...pinned, locale: 'pt' });
    const two = mountForTest({ ...pinned, locale: 'pt-BR' });
    await one.ui.findByRole('heading', { name: 'Escolha uma data' });
    await two.ui.findByRole('heading', { name: 'Escolha uma data' });
    const files = [...one.outing.requests, ...two.outing.requests].filter((r) => r.url.pathname === '/widget/pt.json');
    expect(files).toHaveLength(1);
  });

  it('speaks English, and books in English, when the texts cannot be had', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const s = mountForTest({ ...pinned, locale: 'pt-PT' }, { languages: {} });
    await toDetails(s);
    expect(s.root.querySelector('.outing')!.getAttribute('lang')).toBe('en');
    expect(error).toHaveBeenCalledWith('[Outing]', expect.any(Error));
    error.mockRestore();
    fill(s, { Name: 'Ana', 'E-mail': 'ana@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Book' }));
    await s.ui.findByRole('heading', { name: 'Booking confirmed' });
    expect(s.outing.requests.at(-1)!.body).toMatchObject({ locale: 'en' });
  });

  it('says in English a text the language file lacks (a file older than the widget)', async () => {
    const s = mountForTest({ ...pinned, locale: 'pt-PT' }, { languages: { pt: { chooseDate: 'Escolha uma data' } } });
    await s.ui.findByRole('heading', { name: 'Escolha uma data' });
    expect(s.ui.getByRole('button', { name: 'Next month' })).toBeTruthy();
  });
});

describe('choosing the language', () => {
  const browser = (languages: string[]) => vi.spyOn(navigator, 'languages', 'get').mockReturnValue(languages);
  const { locale: _, ...noLocale } = pinned;
  const lang = (s: WidgetUnderTest) => s.root.querySelector('.outing')!.getAttribute('lang');

  it('takes the browser’s first language it speaks, by primary subtag, and formats in that tag', async () => {
    browser(['ja-JP', 'de-AT', 'fr']);
    const s = mountForTest(noLocale, { languages: { de, fr } });
    await s.ui.findByRole('heading', { name: 'Datum wählen' });
    expect(lang(s)).toBe('de-AT');
    expect(asked(s).filter((r) => r.includes('/widget/'))).toEqual(['GET https://outing.test/widget/de.json']);
  });

  it('prefers data-locale to the browser, and skips a data-locale it does not speak', async () => {
    browser(['de-DE']);
    const s = mountForTest({ ...noLocale, locale: 'nl-BE' }, { languages: { de, nl } });
    await s.ui.findByRole('heading', { name: 'Kies een datum' });
    expect(lang(s)).toBe('nl-BE');
    const t = mountForTest({ ...noLocale, locale: 'ja' }, { languages: { de, nl } });
    await t.ui.findByRole('heading', { name: 'Datum wählen' });
  });

  it('speaks the org’s default language when the browser asks for none of ours, and books in it', async () => {
    browser(['ja-JP', 'zh']);
    let arrive!: (v?: unknown) => void;
    const s = mountForTest(noLocale, { experiences: [{ ...walk, defaultLocale: 'fr' }], languages: { fr }, languagesAfter: new Promise((go) => (arrive = go)) });
    // The experience answer names the language: its file is the one request more, and nothing shows meanwhile.
    await waitFor(() => expect(asked(s)).toContain('GET https://outing.test/widget/fr.json'));
    expect(asked(s)).toHaveLength(3);
    expect(s.root.querySelector('.outing')!.textContent).toBe('');
    arrive();
    await s.ui.findByRole('heading', { name: 'Choisissez une date' });
    expect(lang(s)).toBe('fr');
    await waitFor(() => expect(s.day('2026-12-02').getAttribute('aria-disabled')).toBe('false'));
    fireEvent.click(s.day('2026-12-02'));
    await s.ui.findByRole('heading', { name: 'Choisissez un horaire' });
    fireEvent.click(s.ui.getByRole('button', { name: /^0?9:00/ }));
    await s.ui.findByRole('heading', { name: 'Vos coordonnées' });
    fill(s, { Nom: 'Anne', 'E-mail': 'anne@example.com' });
    fireEvent.click(s.ui.getByRole('button', { name: 'Réserver' }));
    await s.ui.findByRole('heading', { name: 'Réservation confirmée' });
    expect(s.outing.requests.at(-1)!.body).toMatchObject({ locale: 'fr' });
  });

  it('speaks English at once when the org’s default is English', async () => {
    browser(['ja-JP']);
    const s = mountForTest(noLocale);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect(lang(s)).toBe('en');
    expect(asked(s).filter((r) => r.includes('/widget/'))).toEqual([]);
  });
});
