// A real SMTP server (smtp-server, nodemailer's own) on a free loopback port, for tests: what it
// accepts is parsed with mailparser as a mail client would read it.
import type { AddressInfo } from 'node:net';
import { simpleParser, type AddressObject, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface ReceivedMail {
  from: string;
  to: string[];
  mail: ParsedMail;
}

export interface TestSmtpServer {
  port: number;
  url: string;
  received: ReceivedMail[];
  /** Resolves once `count` messages have arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<ReceivedMail[]>;
  close(): Promise<void>;
}

export type SmtpHooks = Pick<SMTPServerOptions, 'onRcptTo' | 'onData' | 'onAuth'>;

export async function startSmtpServer(hooks: SmtpHooks = {}): Promise<TestSmtpServer> {
  const received: ReceivedMail[] = [];
  const waiters = new Set<() => void>();
  const server = new SMTPServer({
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then((mail) => {
          const from = session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address;
          received.push({ from, to: session.envelope.rcptTo.map((r) => r.address), mail });
          callback();
          for (const wake of waiters) wake();
        })
        .catch(callback);
    },
    ...hooks,
  });
  // A client killed mid-conversation resets its connection: that is the test's doing, not a failure.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    waitFor(count, timeoutMs = 10_000) {
      if (received.length >= count) return Promise.resolve(received);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`Expected ${count} e-mails within ${timeoutMs} ms, got ${received.length}`));
        }, timeoutMs);
        const check = () => {
          if (received.length < count) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve(received);
        };
        waiters.add(check);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The addresses of a parsed To, Cc or Reply-To header. */
export const addressesOf = (a: AddressObject | AddressObject[] | undefined): (string | undefined)[] =>
  [a ?? []].flat().flatMap((o) => o.value.map((v) => v.address));
