// A mail catcher for trying guest e-mails on one machine: an SMTP server on 127.0.0.1 that accepts
// every message and prints it (subject, recipient, the text part, attachments) instead of delivering it.
//
//   npm run mail-catcher                 # listens on 127.0.0.1:1025 (MAIL_CATCHER_PORT to change)
//   SMTP_URL=smtp://127.0.0.1:1025 npm start
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

const port = Number(process.env.MAIL_CATCHER_PORT ?? 1025);
const server = new SMTPServer({
  authOptional: true,
  allowInsecureAuth: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    simpleParser(stream)
      .then((mail) => {
        const to = session.envelope.rcptTo.map((r) => r.address).join(', ');
        const attachments = mail.attachments.map((a) => `${a.filename ?? 'unnamed'} (${a.contentType})`).join(', ') || 'none';
        process.stdout.write(
          [
            '─'.repeat(72),
            `To:          ${to}`,
            `Subject:     ${mail.subject ?? ''}`,
            `Message-ID:  ${mail.messageId ?? ''}`,
            `Attachments: ${attachments}`,
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
server.on('error', (err) => process.stderr.write(`mail catcher: ${err.message}\n`));
server.listen(port, '127.0.0.1', () => {
  process.stdout.write(`Mail catcher on smtp://127.0.0.1:${port}: run Outing with SMTP_URL=smtp://127.0.0.1:${port}\n`);
});
