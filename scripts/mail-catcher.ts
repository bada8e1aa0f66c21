// A mail catcher for trying guest e-mails on one machine: an SMTP server on 127.0.0.1 that accepts
// every message and prints it (subject, recipient, the text part, attachments) instead of delivering
// it, and a small web page on 127.0.0.1 that shows each message's HTML part as a mail client would.
//
//   npm run mail-catcher                 # SMTP on 127.0.0.1:1025, the HTML parts on http://127.0.0.1:1080
//   SMTP_URL=smtp://127.0.0.1:1025 npm start
//
// MAIL_CATCHER_PORT and MAIL_CATCHER_HTTP_PORT change the ports.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMessage {
  /** 1, 2, …: its address on the web page. */
  n: number;
  to: string;
  subject: string;
  html: string | null;
}

export interface MailCatcher {
  smtpPort: number;
  /** The web page's address, e.g. `http://127.0.0.1:1080`. */
  httpUrl: string;
  messages: CaughtMessage[];
  close(): Promise<void>;
}

/**
 * The HTML parts are the caught e-mails as they are: shown with no script and nothing fetched from
 * elsewhere (images as data: or https: only), as a careful mail client would.
 */
const MESSAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data: https:; sandbox";
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; frame-src 'self'";

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function indexPage(messages: readonly CaughtMessage[]): string {
  const rows = [...messages]
    .reverse()
    .map((m) =>
      m.html === null
        ? `<li>${escapeHtml(m.subject)} <small>to ${escapeHtml(m.to)}: no HTML part</small></li>`
        : `<li><a href="/messages/${m.n}.html">${escapeHtml(m.subject)}</a> <small>to ${escapeHtml(m.to)}</small></li>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Outing mail catcher</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;margin:2rem;max-width:50rem}small{color:#555}</style></head>
<body><h1>Caught e-mails</h1><p>Newest first. Reload for new ones.</p>
${messages.length ? `<ol reversed>\n${rows}\n</ol>` : '<p>None yet: book on the demo page.</p>'}</body></html>`;
}

function listenHttp(server: Server, port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port));
  });
}

/** Starts both servers; `write` receives what the terminal shows (each caught e-mail, in full). */
export async function startMailCatcher(options: { smtpPort?: number; httpPort?: number; host?: string; write?: (text: string) => void } = {}): Promise<MailCatcher> {
  const host = options.host ?? '127.0.0.1';
  const write = options.write ?? ((text: string) => process.stdout.write(text));
  const messages: CaughtMessage[] = [];

  const web = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const found = /^\/messages\/(\d+)\.html$/.exec(path);
    const message = found ? messages.find((m) => m.n === Number(found[1])) : undefined;
    if (path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': PAGE_CSP, 'cache-control': 'no-store' });
      res.end(indexPage(messages));
    } else if (message?.html != null) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': MESSAGE_CSP, 'cache-control': 'no-store' });
      res.end(message.html);
    } else {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('No such message\n');
    }
  });
  const httpPort = await listenHttp(web, options.httpPort ?? 1080, host);
  const httpUrl = `http://${host}:${httpPort}`;

  const smtp = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
          const attachments = mail.attachments.map((a) => `${a.filename ?? 'unnamed'} (${a.contentType})`).join(', ') || 'none';
          const html = typeof mail.html === 'string' ? mail.html : null;
          const caught: CaughtMessage = { n: messages.length + 1, to, subject: mail.subject ?? '', html };
          messages.push(caught);
          write(
            [
              '─'.repeat(72),
              `To:          ${to}`,
              `Subject:     ${caught.subject}`,
              `Message-ID:  ${mail.messageId ?? ''}`,
              `Attachments: ${attachments}`,
              `HTML part:   ${html === null ? 'none' : `${httpUrl}/messages/${caught.n}.html (${Buffer.byteLength(html)} bytes; open it in a browser)`}`,
              '',
              (mail.text ?? '').trimEnd(),
              '',
            ].join('\n'),
          );
          callback();
        })
        .catch(callback);
    },
  });
  smtp.on('error', (err) => process.stderr.write(`mail catcher: ${err.message}\n`));
  const smtpPort = await new Promise<number>((resolve, reject) => {
    smtp.server.once('error', reject);
    smtp.listen(options.smtpPort ?? 1025, host, () => resolve((smtp.server.address() as AddressInfo).port));
  });

  return {
    smtpPort,
    httpUrl,
    messages,
    close: async () => {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const catcher = await startMailCatcher({
    smtpPort: Number(process.env.MAIL_CATCHER_PORT ?? 1025),
    httpPort: Number(process.env.MAIL_CATCHER_HTTP_PORT ?? 1080),
  });
  process.stdout.write(
    `Mail catcher on smtp://127.0.0.1:${catcher.smtpPort}: run Outing with SMTP_URL=smtp://127.0.0.1:${catcher.smtpPort}\n` +
      `The HTML parts of caught e-mails: ${catcher.httpUrl}\n`,
  );
}
