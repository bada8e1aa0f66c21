import { fireEvent, waitFor } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import type { ChunkScript } from './chunks.js';
import { forms, type FormsChunk } from './forms.js';
import { mountForTest, pinned, useWidgetTests } from './test-helpers/widget-under-test.js';
import type { WidgetUnderTest } from './test-helpers/widget-under-test.js';
import type { FakeOutingOptions } from './test-helpers/fake-outing.js';

useWidgetTests();

const CHUNK = 'https://outing.test/widget/forms.js';

/** What a browser does with the script widget.js adds (happy-dom runs none): the chunk hands its export to its <script>. */
async function arrives(): Promise<void> {
  const script = await waitFor(() => {
    const found = document.head.querySelector<ChunkScript<FormsChunk>>(`script[src="${CHUNK}"]`);
    if (!found) throw new Error('widget.js has not asked for forms.js, the gift-voucher mode’s chunk');
    return found;
  });
  if (!script.outing) {
    script.outing = forms;
    script.dispatchEvent(new Event('load'));
  }
}

async function giftWidget(locale = 'en', options: FakeOutingOptions = {}, attributes: Record<string, string> = {}): Promise<WidgetUnderTest> {
  const s = mountForTest({ key: 'opk_test', locale, mode: 'gift-voucher', ...attributes }, options);
  await arrives();
  return s;
}

const radios = (s: WidgetUnderTest) => [...s.root.querySelectorAll<HTMLInputElement>('input[type=radio]')];
const type = (s: WidgetUnderTest, id: string, value: string) => fireEvent.input(s.root.getElementById(id)!, { target: { value } });
const describedBy = (s: WidgetUnderTest, id: string) => s.root.getElementById(s.root.getElementById(id)!.getAttribute('aria-describedby') ?? '')?.textContent;
const posts = (s: WidgetUnderTest) => s.outing.requests.filter((r) => r.method === 'POST');

describe('the gift-voucher mode', () => {
  it('loads its chunk only in that mode: a widget that books never asks for it', async () => {
    const s = mountForTest(pinned);
    await s.ui.findByRole('heading', { name: 'Choose a date' });
    expect(document.head.querySelector(`script[src="${CHUNK}"]`)).toBeNull();
    // Nor does it ask for experiences or availability in gift-voucher mode.
    const g = await giftWidget();
    await g.ui.findByRole('group', { name: /Amount/ });
    expect(g.outing.requests.map((r) => `${r.method} ${r.url.pathname}`)).toEqual(['GET /public/v1/gift-vouchers']);
    expect(g.outing.requests[0]!.url.searchParams.get('key')).toBe('opk_test');
  });

  it('shows the amounts as money in a group, and the fields with their labels', async () => {
    const s = await giftWidget();
    expect(s.ui.getByRole('heading', { name: 'Gift voucher' })).toBeTruthy();
    const group = await s.ui.findByRole('group', { name: /Amount/ });
    expect(group.tagName).toBe('FIELDSET');
    expect(radios(s).map((r) => r.labels?.[0]?.textContent?.trim())).toEqual(['€25.00', '€50.00', '€100.00']);
    for (const label of [/Your name/, /Your e-mail/, 'Recipient’s name', 'Recipient’s e-mail', 'Message']) expect(s.ui.getByLabelText(label)).toBeTruthy();
    expect((s.ui.getByLabelText(/Your name/) as HTMLInputElement).required).toBe(true);
    expect((s.ui.getByLabelText('Message') as HTMLTextAreaElement).maxLength).toBe(500);
    expect(s.ui.getByRole('button', { name: 'Buy gift voucher' })).toBeTruthy();
  });

  it('posts the amount and the fields filled in, and goes to the payment page', async () => {
    const assign = vi.fn();
    vi.stubGlobal('location', { ...location, href: location.href, assign });
    const s = await giftWidget();
    await s.ui.findByRole('group', { name: /Amount/ });
    fireEvent.click(radios(s)[1]!);
    type(s, 'buyerName', ' Ana Costa ');
    type(s, 'buyerEmail', 'ana@example.com');
    type(s, 'recipientName', 'Rui Costa');
    type(s, 'message', 'Parabéns!');
    fireEvent.click(s.ui.getByRole('button', { name: 'Buy gift voucher' }));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://checkout.stripe.test/c/pay/cs_gift'));
    const [post] = posts(s);
    expect(post!.url.pathname).toBe('/public/v1/gift-vouchers');
    expect(post!.headers['X-Outing-Key']).toBe('opk_test');
    expect(post!.referrerPolicy).toBe('no-referrer-when-downgrade');
    expect(post!.credentials).toBe('omit');
    expect(post!.body).toEqual({ amount: '50.00', buyerName: 'Ana Costa', buyerEmail: 'ana@example.com', recipientName: 'Rui Costa', message: 'Parabéns!' });
  });

  it('shows a 400’s problems beside their fields, tied to them, focus on the first', async () => {
    const s = await giftWidget();
    await s.ui.findByRole('group', { name: /Amount/ });
    type(s, 'recipientEmail', 'not an address');
    fireEvent.click(s.ui.getByRole('button', { name: 'Buy gift voucher' }));
    await waitFor(() => expect(s.root.getElementById('amount-error')?.textContent).toBe('Choose an amount.'));
    expect(s.ui.getByRole('group', { name: /Amount/ }).getAttribute('aria-describedby')).toBe('amount-error');
    expect(describedBy(s, 'buyerName')).toBe('Please fill this in.');
    expect(describedBy(s, 'buyerEmail')).toBe('Please enter an e-mail address such as name@example.com.');
    expect(describedBy(s, 'recipientEmail')).toBe('Please enter an e-mail address such as name@example.com.');
    expect(s.root.getElementById('buyerName')!.getAttribute('aria-invalid')).toBe('true');
    expect(s.root.getElementById('recipientName')!.getAttribute('aria-invalid')).toBe('false');
    await waitFor(() => expect(s.root.activeElement).toBe(radios(s)[0]));
  });

  it('says calmly that vouchers are not sold online, from the offer or from a 409', async () => {
    const none = await giftWidget('en', { giftVouchers: { amounts: [], currency: 'EUR', available: false } });
    await none.ui.findByText('Gift vouchers are not sold online here.');
    expect(none.root.querySelector('form')).toBeNull();

    const s = await giftWidget();
    await s.ui.findByRole('group', { name: /Amount/ });
    s.outing.failNext('gift-vouchers', { status: 409, code: 'PAYMENTS_NOT_CONFIGURED' });
    fireEvent.click(radios(s)[0]!);
    type(s, 'buyerName', 'Ana');
    type(s, 'buyerEmail', 'ana@example.com');
    fireEvent.click(s.ui.getByRole('button', { name: 'Buy gift voucher' }));
    await s.ui.findByText('Gift vouchers are not sold online here.');
    expect(s.root.querySelector('form')).toBeNull();
  });

  it('says a network failure as the widget does elsewhere, and keeps what was typed', async () => {
    const s = await giftWidget();
    await s.ui.findByRole('group', { name: /Amount/ });
    s.outing.failNext('gift-vouchers', 'network');
    fireEvent.click(radios(s)[2]!);
    type(s, 'buyerName', 'Ana');
    type(s, 'buyerEmail', 'ana@example.com');
    fireEvent.click(s.ui.getByRole('button', { name: 'Buy gift voucher' }));
    expect((await s.ui.findByRole('alert')).textContent).toBe('We could not reach the booking service. Check your connection and try again.');
    expect((s.root.getElementById('buyerName') as HTMLInputElement).value).toBe('Ana');
    expect(radios(s)[2]!.checked).toBe(true);
  });

  it('speaks Portuguese from pt.json, amounts in its money format', async () => {
    const s = await giftWidget('pt-PT');
    await s.ui.findByRole('heading', { name: 'Vale-oferta' });
    await s.ui.findByRole('group', { name: /Valor/ });
    expect(radios(s)[0]!.labels?.[0]?.textContent?.trim()).toMatch(/^25,00\s€$/);
    expect(s.ui.getByRole('button', { name: 'Comprar vale-oferta' })).toBeTruthy();
    expect(s.ui.getByLabelText('Nome de quem recebe')).toBeTruthy();
  });

  it('thanks a buyer back from paying, and takes the return out of the address', async () => {
    history.replaceState(null, '', '/gifts?outing_booking=gvp_1&outing_status=success');
    const s = await giftWidget();
    await s.ui.findByText('Thank you! The gift voucher will arrive by e-mail.');
    expect(location.search).toBe('');
    // No booking is looked up for a purchase's id.
    expect(s.outing.requests.some((r) => r.url.pathname.includes('bookings'))).toBe(false);
  });

  it('takes `mode` from Outing.mount’s options too', async () => {
    const { mountWidget } = await import('./mount.js');
    const host = document.createElement('div');
    document.body.append(host);
    const s = mountForTest({ key: 'opk_test', locale: 'en' });
    const m = mountWidget(host, { key: 'opk_test', locale: 'en', mode: 'gift-voucher' }, 'https://outing.test');
    await arrives();
    await waitFor(() => expect(host.shadowRoot!.querySelector('fieldset')).toBeTruthy());
    m.unmount();
    expect(s).toBeTruthy();
  });
});
