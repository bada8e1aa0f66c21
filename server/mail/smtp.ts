// Sending one e-mail over SMTP (nodemailer), and saying whether a failure is worth another try.
// The outbox worker decides when to retry; this file only reports what the server answered.
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type SMTPTransport from 'nodemailer/lib/smtp-transport/index.js';
import { SendFailure, type MailTransport, type SendFailureKind } from './message.js';

export { SendFailure, type SendFailureKind, type MailTransport } from './message.js';

export interface SmtpOptions {
  /** `smtp://[user:pass@]host:port` (STARTTLS when offered) or `smtps://…` (TLS from the start). */
  url: string;
  /** The From header, e.g. `Outing <no-reply@book.example.com>`. */
  from: string;
  /** Milliseconds; short by default, a slow server is a temporary failure, not a stuck worker. */
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
}

const DEFAULT_PORT = { 'smtp:': 587, 'smtps:': 465 } as const;
const MESSAGE_LIMIT = 500;

/** The transport's settings from SMTP_URL; refuses other schemes and a From with line breaks. */
export function smtpSettings(options: SmtpOptions): SMTPTransport.Options {
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new Error('SMTP_URL is not a URL (smtp://[user:pass@]host:port or smtps://…)');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  if (url.hostname === '') throw new Error('SMTP_URL has no host');
  if (/[\r\n]/.test(options.from)) throw new Error('MAIL_FROM must be one line');
  const user = decodeURIComponent(url.username);
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port: url.port === '' ? DEFAULT_PORT[url.protocol] : Number(url.port),
    secure: url.protocol === 'smtps:',
    ...(user === '' ? {} : { auth: { user, pass: decodeURIComponent(url.password) } }),
    connectionTimeout: options.connectionTimeoutMs ?? 5_000,
    greetingTimeout: options.greetingTimeoutMs ?? 5_000,
    socketTimeout: options.socketTimeoutMs ?? 15_000,
    dnsTimeout: options.connectionTimeoutMs ?? 5_000,
    // Our messages carry their content inline: never let an attachment name a file or a URL.
    disableFileAccess: true,
    disableUrlAccess: true,
  };
}

interface NodemailerError {
  code?: unknown;
  responseCode?: unknown;
  response?: unknown;
  message?: unknown;
}

/** What went wrong, classified, with every credential of SMTP_URL blanked out. */
export function sendFailureOf(error: unknown, secrets: readonly string[] = []): SendFailure {
  const e = (typeof error === 'object' && error !== null ? error : { message: String(error) }) as NodemailerError;
  const code = typeof e.code === 'string' ? e.code : null;
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : null;
  const said = typeof e.response === 'string' ? e.response : typeof e.message === 'string' ? e.message : 'Unknown error';
  let message = [code, responseCode, said].filter((part) => part !== null).join(' ');
  // A secret of one or two characters would blank half the message and hides nothing worth hiding.
  for (const secret of secrets) if (secret.length > 2) message = message.split(secret).join('***');
  message = message.replace(/[\u0000-\u001F\u007F]+/g, ' ').trim().slice(0, MESSAGE_LIMIT);
  // An envelope or message the transport refused before any reply (no recipient, a bad address)
  // would be refused again; everything else without a reply code is the network's fault.
  const kind: SendFailureKind =
    responseCode !== null ? (responseCode >= 500 ? 'permanent' : 'temporary') : code === 'EENVELOPE' || code === 'EMESSAGE' ? 'permanent' : 'temporary';
  return new SendFailure(kind, message, responseCode);
}

/**
 * The From of one message: MAIL_FROM's address under the organization's name (when the message
 * names one); without a name, MAIL_FROM as configured. Nodemailer writes the header, quoting the name
 * and encoding it (RFC 2047) when it is not plain ASCII.
 */
export function fromHeader(mailFrom: string, name: string | undefined): string | { name: string; address: string } {
  const display = name?.replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();
  if (!display) return mailFrom;
  const [first] = addressparser(mailFrom, { flatten: true });
  if (!first || first.address === '') return mailFrom;
  return { name: display, address: first.address };
}

/** A header's value on one line (the composers make it one already; the transport makes sure). */
function oneLineHeader(value: string): string {
  return value.replace(/[\u0000-\u001F\u007F]+/g, ' ').trim();
}

export function smtpTransport(options: SmtpOptions): MailTransport {
  const settings = smtpSettings(options);
  const url = new URL(options.url);
  const secrets = [options.url, url.password, decodeURIComponent(url.password), url.username, decodeURIComponent(url.username)];
  const transporter = nodemailer.createTransport(settings);
  return {
    async send(message) {
      try {
        const info = await transporter.sendMail({
          from: fromHeader(options.from, message.fromName),
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          messageId: message.headers['Message-ID'],
          ...(message.headers['Reply-To'] ? { replyTo: message.headers['Reply-To'] } : {}),
          headers: { 'Content-Language': oneLineHeader(message.headers['Content-Language']) },
          attachments: message.attachments.map((a) => ({ filename: a.filename, content: a.content, contentType: a.contentType })),
        });
        return { accepted: info.accepted.length > 0 };
      } catch (error) {
        throw sendFailureOf(error, secrets);
      }
    },
  };
}
