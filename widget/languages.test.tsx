import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { fill, mountForTest, pinned, toDetails, useWidgetTests } from './test-helpers/widget-under-test.js';
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
