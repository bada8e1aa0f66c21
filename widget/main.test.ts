import { waitFor } from '@testing-library/preact';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeOuting } from './test-helpers/fake-outing.js';

const attributes = 'data-key="opk_test" data-experience="exp_walk" data-api="https://outing.test" data-locale="en"';
let globalsBefore: Set<string>;

beforeAll(async () => {
  vi.stubGlobal('fetch', fakeOuting().fetch);
  globalsBefore = new Set(Object.getOwnPropertyNames(window));
  document.body.innerHTML = `<main><div id="first" data-outing ${attributes}></div></main>`;
  await import('./main.js');
});

afterAll(() => {
  vi.unstubAllGlobals();
});

const headingOf = (el: Element) => el.shadowRoot?.querySelector('h2')?.textContent;

describe('widget.js on a host page', () => {
  it('mounts into the [data-outing] elements already on the page, in an open shadow root', async () => {
    const first = document.getElementById('first')!;
    expect(first.shadowRoot).not.toBeNull();
    await waitFor(() => expect(headingOf(first)).toBe('Choose a date'));
    // The host's light DOM is left alone.
    expect(first.children).toHaveLength(0);
  });

  it('adds window.Outing and no other global', () => {
    const added = Object.getOwnPropertyNames(window).filter((name) => !globalsBefore.has(name));
    expect(added).toEqual(['Outing']);
    expect(typeof window.Outing?.mount).toBe('function');
  });

  it('mounts elements added later, and unmounts ones removed from the page', async () => {
    const wrapper = document.createElement('section');
    wrapper.innerHTML = `<div data-outing ${attributes}></div>`;
    document.body.append(wrapper);
    const later = wrapper.firstElementChild!;
    await waitFor(() => expect(headingOf(later)).toBe('Choose a date'));
    wrapper.remove();
    await waitFor(() => expect(later.shadowRoot!.childNodes).toHaveLength(0));
  });

  it('keeps a moved element mounted', async () => {
    const el = document.getElementById('first')!;
    document.body.append(el);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(headingOf(el)).toBe('Choose a date');
  });

  it('mounts by hand with options over the data attributes, and unmounts', async () => {
    const el = document.createElement('div');
    document.body.append(el);
    const handle = window.Outing!.mount(el, { key: 'opk_test', api: 'https://outing.test', locale: 'pt', experience: 'exp_walk' });
    await waitFor(() => expect(headingOf(el)).toBe('Escolha uma data'));
    handle.unmount();
    expect(el.shadowRoot!.childNodes).toHaveLength(0);
  });

  it('never throws into the host page, even when called with nonsense', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => window.Outing!.mount(null as unknown as HTMLElement).unmount()).not.toThrow();
    expect(error).toHaveBeenCalled();
    error.mockRestore();
  });
});
