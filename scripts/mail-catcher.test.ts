import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import nodemailer from 'nodemailer';
import { afterEach, describe, expect, it } from 'vitest';
import { startMailCatcher, type MailCatcher } from './mail-catcher.js';

// `npm run mail-catcher` as a person uses it: a real SMTP client sends to it, the terminal shows
// each e-mail, and its HTML part opens in a browser from the catcher's own page.

let catcher: MailCatcher | undefined;
afterEach(async () => {
  await catcher?.close();
  catcher = undefined;
});

async function send(port: number, mail: { subject: string; text: string; html?: string }): Promise<void> {
  const transport = nodemailer.createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true });
  await transport.sendMail({ from: 'Lisbon Walks <no-reply@localhost>', to: 'ana@example.com', ...mail });
  transport.close();
}

describe('the mail catcher', () => {
  it('prints each e-mail with a link to its HTML part, and serves that part as it was sent', async () => {
    let printed = '';
    catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, write: (text) => (printed += text) });
    const html = '<!doctype html><html><body><h1>Your booking BK-7F3K9Q2M</h1><p>See you at <b>10:00</b>.</p><script>alert(1)</script></body></html>';
    await send(catcher.smtpPort, { subject: 'Booking confirmed', text: 'See you at 10:00.', html });
    await send(catcher.smtpPort, { subject: 'Text only', text: 'Plain.' });

    expect(printed).toContain('Subject:     Booking confirmed');
    expect(printed).toContain('See you at 10:00.');
    const link = /HTML part:\s+(http:\/\/127\.0\.0\.1:\d+\/messages\/1\.html) \((\d+) bytes; open it in a browser\)/.exec(printed);
    expect(link, printed).not.toBeNull();
    expect(Number(link![2])).toBe(Buffer.byteLength(html));
    expect(printed).toMatch(/Subject:\s+Text only[^]*HTML part:\s+none/);

    const res = await fetch(link![1]!);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await res.text()).toBe(html);
    // The caught HTML runs no script and fetches nothing.
    expect(res.headers.get('content-security-policy')).toMatch(/default-src 'none'.*sandbox/);

    // The page lists them newest first, each linking to its HTML part.
    const index = await (await fetch(`${catcher.httpUrl}/`)).text();
    expect(index.indexOf('Text only')).toBeLessThan(index.indexOf('Booking confirmed'));
    expect(index).toContain('<a href="/messages/1.html">Booking confirmed</a>');
    expect(index).toContain('Text only <small>to ana@example.com: no HTML part</small>');
    expect((await fetch(`${catcher.httpUrl}/messages/2.html`)).status).toBe(404);
    expect((await fetch(`${catcher.httpUrl}/messages/9.html`)).status).toBe(404);
  });

  it('escapes what it lists on its own page', async () => {
    catcher = await startMailCatcher({ smtpPort: 0, httpPort: 0, write: () => {} });
    await send(catcher.smtpPort, { subject: '<img src=x onerror=alert(1)>', text: 'x', html: '<p>x</p>' });
    const index = await (await fetch(`${catcher.httpUrl}/`)).text();
    expect(index).not.toContain('<img src=x');
    expect(index).toContain('&#60;img src=x onerror=alert(1)&#62;');
  });

  it('starts from npm run mail-catcher, saying both addresses', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/mail-catcher.ts'], {
      cwd: resolve(import.meta.dirname, '..'),
      env: { ...process.env, MAIL_CATCHER_PORT: '0', MAIL_CATCHER_HTTP_PORT: '0' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      await expect.poll(() => out, { timeout: 20_000 }).toMatch(/The HTML parts of caught e-mails: http:\/\/127\.0\.0\.1:\d+\n/);
      expect(out).toMatch(/^Mail catcher on smtp:\/\/127\.0\.0\.1:\d+: run Outing with SMTP_URL=smtp:\/\/127\.0\.0\.1:\d+\n/);
    } finally {
      child.kill();
    }
  });
});
