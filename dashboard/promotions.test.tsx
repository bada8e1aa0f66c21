import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from './api.js';
import { mountAt, useDashboardTests } from './test-helpers/dashboard-under-test.js';
import { promotionsHttp } from './test-helpers/fake-api.js';
import { instantIn, localIn } from './state/promotions.js';

useDashboardTests();

const open = async (path: string, section: string) => {
  const fake = promotionsHttp();
  const t = mountAt(path, { signedIn: true, http: fake.http });
  // The first test waits for the screens' lazy chunk, which a cold, busy run transforms slowly.
  await screen.findByRole('heading', { level: 2, name: section }, { timeout: 15_000 });
  await waitFor(() => expect(document.querySelector('.settings .status-line')!.textContent).not.toContain('Loading'));
  return { ...t, fake };
};

const cardOf = (name: string) => screen.getByRole('heading', { name }).closest('li')!;
const factsOf = (el: HTMLElement) => Object.fromEntries([...el.querySelectorAll('dl.facts > div')].map((d) => [d.querySelector('dt')!.textContent, d.querySelector('dd')!.textContent]));
const type = (label: string, value: string, within_: HTMLElement = document.body) => fireEvent.input(within(within_).getByLabelText(label), { target: { value } });

describe('wall-clock times in the organization’s zone', () => {
  it('turns a local date and time into the instant, across summer time, and back', () => {
    expect(instantIn('2027-07-01T09:00', 'Europe/Lisbon')).toBe('2027-07-01T08:00:00.000Z');
    expect(instantIn('2027-01-15T09:00', 'Europe/Lisbon')).toBe('2027-01-15T09:00:00.000Z');
    expect(instantIn('2027-03-10T18:30', 'America/New_York')).toBe('2027-03-10T23:30:00.000Z');
    expect(instantIn('2027-03-20T18:30', 'America/New_York')).toBe('2027-03-20T22:30:00.000Z');
    expect(instantIn('not a date', 'Europe/Lisbon')).toBeNull();
    expect(localIn('2027-07-01T08:00:00.000Z', 'Europe/Lisbon')).toBe('2027-07-01T09:00');
  });
});

describe('Settings › Promo codes', () => {
  it('lists each code with its discount, experiences, validity, uses and status', async () => {
    await open('/dashboard/settings/promo-codes', 'Promo codes');
    expect(document.title).toBe('Promo codes · Settings · Outing');
    const nav = screen.getByRole('navigation', { name: 'Settings sections' });
    expect(within(nav).getByRole('link', { name: 'Promo codes' }).getAttribute('aria-current')).toBe('page');
    expect(factsOf(cardOf('SUMMER15'))).toEqual({ Discount: '15%', Experiences: 'All', Valid: 'until 2026-12-31 23:00', Uses: '3 of 10', Status: 'Active' });
    expect(screen.getByRole('heading', { name: 'New promo code' })).toBeTruthy();
  });

  it('makes a code: an amount typed in euros sent in cents, chosen experiences, local times as instants', async () => {
    const t = await open('/dashboard/settings/promo-codes', 'Promo codes');
    const form = screen.getByRole('form', { name: 'New promo code' });
    type('Code', 'walk5', form);
    fireEvent.change(within(form).getByLabelText('Discount type'), { target: { value: 'AMOUNT' } });
    type('Discount', '5', form);
    fireEvent.click(within(form).getByLabelText('Tagus Sunset Cruise'));
    type('Valid from', '2027-07-01T09:00', form);
    type('Maximum uses', '20', form);
    fireEvent.submit(form);
    await screen.findByRole('heading', { name: 'WALK5' });
    expect(t.fake.calls.find((c) => c.method === 'POST')!.body).toEqual({
      code: 'walk5',
      discountType: 'AMOUNT',
      discountValue: 500,
      experienceIds: ['exp_boat'],
      validFrom: '2027-07-01T08:00:00.000Z',
      validUntil: null,
      maxUses: 20,
      active: true,
    });
    expect(factsOf(cardOf('WALK5'))).toMatchObject({ Discount: '€5.00', Experiences: 'Tagus Sunset Cruise', Uses: '0 of 20' });
    expect(document.querySelector('.settings .status-line')!.textContent).toBe('The promo code “WALK5” is made.');
  });

  it('says a taken code and the API’s field refusals beside their fields, and checks what it can first', async () => {
    const t = await open('/dashboard/settings/promo-codes', 'Promo codes');
    const form = screen.getByRole('form', { name: 'New promo code' });
    type('Code', 'summer15', form);
    type('Discount', '12.5', form);
    fireEvent.submit(form);
    // A percentage is whole: said before anything is sent.
    await waitFor(() => expect(within(form).getByLabelText('Discount').getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain('Enter a whole percentage from 1 to 100, such as 15.');
    expect(t.fake.calls.some((c) => c.method === 'POST')).toBe(false);

    type('Discount', '10', form);
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getByLabelText('Code').getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain('The code SUMMER15 is already in use.');
    expect(document.activeElement?.id).toBe('promo-code');

    t.fake.refuse.set('POST /v1/promo-codes', new ApiError(400, 'VALIDATION_ERROR', 'Invalid request', [{ path: 'validUntil', message: 'validUntil must be after validFrom' }]));
    type('Code', 'AUTUMN', form);
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getByLabelText('Valid until').getAttribute('aria-invalid')).toBe('true'));
    expect(form.textContent).toContain('validUntil must be after validFrom.');
    expect(within(form).getByLabelText('Code').getAttribute('aria-invalid')).toBeNull();
  });

  it('deactivates a code and activates it again', async () => {
    const t = await open('/dashboard/settings/promo-codes', 'Promo codes');
    fireEvent.click(within(cardOf('SUMMER15')).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(factsOf(cardOf('SUMMER15'))['Status']).toBe('Inactive'));
    expect(t.fake.calls.at(-1)).toMatchObject({ method: 'PATCH', path: '/v1/promo-codes/promo_1', body: { active: false } });
    fireEvent.click(within(cardOf('SUMMER15')).getByRole('button', { name: 'Activate' }));
    await waitFor(() => expect(factsOf(cardOf('SUMMER15'))['Status']).toBe('Active'));
  });

  it('deletes a code once asked, and leaves it when the question is declined', async () => {
    const t = await open('/dashboard/settings/promo-codes', 'Promo codes');
    const del = within(cardOf('SUMMER15')).getByRole('button', { name: 'Delete' });
    fireEvent.click(del);
    let dialog = await screen.findByRole('dialog', { name: 'Delete the promo code “SUMMER15”?' });
    expect(dialog.textContent).toContain('Bookings that took it keep their discount.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Go back' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(t.fake.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(within(cardOf('SUMMER15')).getByRole('button', { name: 'Delete' }));
    dialog = await screen.findByRole('dialog', { name: 'Delete the promo code “SUMMER15”?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete promo code' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'SUMMER15' })).toBeNull());
    expect(t.fake.calls.at(-1)).toMatchObject({ method: 'DELETE', path: '/v1/promo-codes/promo_1' });
    expect(document.querySelector('.settings')!.textContent).toContain('The promo code “SUMMER15” is deleted.');
  });

  it('edits a code in its own form, filled with what it holds, and comes back to the list', async () => {
    const t = await open('/dashboard/settings/promo-codes', 'Promo codes');
    fireEvent.click(within(cardOf('SUMMER15')).getByRole('link', { name: 'Edit' }));
    const form = await screen.findByRole('form', { name: 'Edit promo code SUMMER15' });
    expect((within(form).getByLabelText('Discount') as HTMLInputElement).value).toBe('15');
    expect((within(form).getByLabelText('Valid until') as HTMLInputElement).value).toBe('2026-12-31T23:00');
    expect((within(form).getByLabelText('Maximum uses') as HTMLInputElement).value).toBe('10');
    type('Discount', '20', form);
    fireEvent.submit(form);
    await screen.findByRole('heading', { name: 'New promo code' });
    expect(location.search).toBe('');
    expect(t.fake.calls.find((c) => c.method === 'PATCH')!.body).toMatchObject({ code: 'SUMMER15', discountValue: 20, validUntil: '2026-12-31T23:00:00.000Z', maxUses: 10 });
    await waitFor(() => expect(factsOf(cardOf('SUMMER15'))['Discount']).toBe('20%'));
  });
});

describe('Settings › Gift vouchers', () => {
  it('lists vouchers with their full codes, filters them by status', async () => {
    const t = await open('/dashboard/settings/gift-vouchers', 'Gift vouchers');
    const table = screen.getByRole('table', { name: 'Gift vouchers' });
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => [...r.querySelectorAll('td')].slice(0, 6).map((c) => c.textContent))).toEqual([
      ['GV-7K3M-Q9PX-4T2W', '€100.00', '€60.00', 'Active', 'Rita Sousa, rita@example.com', 'Tue, Nov 20, 2029, 10:00 AM'],
      ['GV-AAAA-BBBB-CCCC', '€25.00', '€0.00', 'Used up', 'None', 'No expiry'],
    ]);
    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'USED' } });
    fireEvent.click(screen.getByRole('button', { name: 'Show' }));
    await waitFor(() => expect(within(screen.getByRole('table', { name: 'Gift vouchers' })).getAllByRole('row')).toHaveLength(2));
    expect(location.search).toBe('?status=USED');
    expect(t.fake.calls.at(-1)).toMatchObject({ path: '/v1/gift-vouchers', query: { status: 'USED' } });
  });

  it('makes a voucher and shows its code with Copy, which says Copied', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const t = await open('/dashboard/settings/gift-vouchers', 'Gift vouchers');
    const form = screen.getByRole('form', { name: 'New gift voucher' });
    // Three years from today is offered; left as it is, the server's default applies.
    expect((within(form).getByLabelText('Expires on') as HTMLInputElement).value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    type('Amount', 'lots', form);
    fireEvent.submit(form);
    await waitFor(() => expect(within(form).getByLabelText('Amount').getAttribute('aria-invalid')).toBe('true'));
    type('Amount', '50', form);
    type('Recipient name', 'João Pires', form);
    type('Recipient e-mail', 'joao@example.com', form);
    type('Message', 'Enjoy the river!', form);
    fireEvent.submit(form);
    const made = await screen.findByRole('group', { name: 'Gift voucher of €50.00 made' });
    expect(t.fake.calls.find((c) => c.method === 'POST')!.body).toEqual({ amount: '50.00', recipientName: 'João Pires', recipientEmail: 'joao@example.com', message: 'Enjoy the river!' });
    expect((within(made).getByLabelText('Code') as HTMLInputElement).value).toBe('GV-NEW0-CODE-9XYZ');
    expect(made.textContent).toContain('Its code is on its way to joao@example.com.');
    fireEvent.click(within(made).getByRole('button', { name: 'Copy' }));
    await waitFor(() => expect(within(made).getByRole('status').textContent).toBe('Copied'));
    expect(writeText).toHaveBeenCalledWith('GV-NEW0-CODE-9XYZ');
    expect(screen.getByRole('table', { name: 'Gift vouchers' }).textContent).toContain('GV-NEW0-CODE-9XYZ');
  });

  it('makes one without expiry, or until the end of a chosen day in the organization’s zone', async () => {
    const t = await open('/dashboard/settings/gift-vouchers', 'Gift vouchers');
    const form = screen.getByRole('form', { name: 'New gift voucher' });
    type('Amount', '20,5', form);
    fireEvent.click(within(form).getByLabelText('No expiry'));
    fireEvent.submit(form);
    await screen.findByRole('group', { name: 'Gift voucher of €20.50 made' });
    expect(t.fake.calls.filter((c) => c.method === 'POST')[0]!.body).toEqual({ amount: '20.50', expiresAt: null });
    type('Amount', '30', form);
    type('Expires on', '2027-08-31', form);
    fireEvent.submit(form);
    await waitFor(() => expect(t.fake.calls.filter((c) => c.method === 'POST')).toHaveLength(2));
    expect(t.fake.calls.filter((c) => c.method === 'POST')[1]!.body).toEqual({ amount: '30.00', expiresAt: '2027-08-31T23:00:00.000Z' });
  });

  it('disables a voucher and enables it again', async () => {
    const t = await open('/dashboard/settings/gift-vouchers', 'Gift vouchers');
    const row = () => screen.getByText('GV-7K3M-Q9PX-4T2W').closest('tr')!;
    fireEvent.click(within(row()).getByRole('button', { name: 'Disable' }));
    await waitFor(() => expect(row().textContent).toContain('Disabled'));
    expect(t.fake.calls.at(-1)).toMatchObject({ method: 'PATCH', path: '/v1/gift-vouchers/gv_1', body: { status: 'DISABLED' } });
    fireEvent.click(within(row()).getByRole('button', { name: 'Enable' }));
    await waitFor(() => expect(t.fake.calls.at(-1)).toMatchObject({ body: { status: 'ACTIVE' } }));
  });

  it('shows one voucher’s redemptions (returns as such) and its e-mails, and resends one', async () => {
    const t = await open('/dashboard/settings/gift-vouchers', 'Gift vouchers');
    fireEvent.click(within(screen.getByText('GV-7K3M-Q9PX-4T2W').closest('tr')!).getByRole('link', { name: 'Details' }));
    await screen.findByRole('heading', { name: 'Gift voucher GV-7K3M-Q9PX-4T2W' });
    expect(location.search).toBe('?voucher=gv_1');
    expect(factsOf(screen.getByRole('heading', { name: 'Gift voucher GV-7K3M-Q9PX-4T2W' }).closest('li')!)['Bought online']).toBe('€100.00 by Ana Costa (ana@example.com), stripe pi_123');
    const redemptions = screen.getByRole('table', { name: 'Redemptions' });
    const cells = within(redemptions).getAllByRole('row').slice(1).map((r) => [...r.querySelectorAll('td')].slice(0, 2).map((c) => c.textContent));
    expect(cells).toEqual([
      ['bk_ana', '€50.00'],
      ['bk_ana', '€50.00 returned'],
      ['bk_bruno', '€40.00'],
    ]);
    expect(within(redemptions).getAllByRole('link', { name: 'bk_ana' })[0]!.getAttribute('href')).toBe('/dashboard/bookings/bk_ana');
    const mail = screen.getByRole('table', { name: 'Messages' });
    expect(mail.textContent).toContain('rita@example.com');
    fireEvent.click(within(mail).getByRole('button', { name: 'Resend' }));
    await waitFor(() => expect(document.querySelector('.settings .status-line')!.textContent).toBe('A new gift voucher e-mail to rita@example.com is queued; it goes out in a moment.'));
    expect(t.fake.calls.some((c) => c.method === 'POST' && c.path === '/v1/gift-vouchers/gv_1/messages/msg_1/resend')).toBe(true);
    expect(within(screen.getByRole('table', { name: 'Messages' })).getAllByRole('row')).toHaveLength(3);
  });
});
