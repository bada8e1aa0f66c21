import { describe, expect, it } from 'vitest';
import { composeGiftVoucherMessage, type GiftVoucherMailInput } from './gift-voucher.js';

const input: GiftVoucherMailInput = {
  locale: 'en',
  voucher: { code: 'GV-7K2M-Q9XD-4HTR', amountCents: 5050, currency: 'EUR', expiresAt: Date.UTC(2027, 5, 30, 23, 30), recipientName: 'Ana', message: null },
  timeZone: 'Europe/Lisbon',
  organization: { name: 'Sea\r\nTours', email: 'hello@sea.example', phone: '+351 912 000 000' },
  to: 'ana@example.com',
  messageId: 'msg_abc',
  host: 'book.sea.example',
};

describe('the gift voucher e-mail', () => {
  it('reads the expiry date in the organization’s zone and keeps headers on one line', () => {
    const mail = composeGiftVoucherMessage(input);
    // 23:30 UTC on 30 June is 00:30 on 1 July in Lisbon (UTC+1 in summer).
    expect(mail.text).toContain('Valid until: 1 July 2027');
    expect(mail.subject).toBe('Your gift voucher from Sea Tours');
    expect(mail.headers).toEqual({ 'Message-ID': '<msg_abc@book.sea.example>', 'Reply-To': 'hello@sea.example', 'Content-Language': 'en' });
    expect(mail.text).toContain('+351 912 000 000');
  });

  it('speaks Portuguese when asked', () => {
    const mail = composeGiftVoucherMessage({ ...input, locale: 'pt', voucher: { ...input.voucher, expiresAt: null, message: 'Parabéns!' } });
    expect(mail.subject).toBe('O seu vale de oferta de Sea Tours');
    expect(mail.text).toContain('Código: GV-7K2M-Q9XD-4HTR');
    expect(mail.text).toContain('Valor: 50,50\u00a0€');
    expect(mail.text).toContain('Válido até: Sem prazo de validade');
    expect(mail.text).toContain('Parabéns!');
    expect(mail.html).toContain('<html lang="pt">');
  });

  it('refuses an address that is not one address', () => {
    expect(() => composeGiftVoucherMessage({ ...input, to: 'a@b.example, c@d.example' })).toThrow();
  });
});
