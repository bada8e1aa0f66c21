// What a transport sends: one finished e-mail, already safe to hand to SMTP. Composing it
// (compose.ts) and sending it (smtp.ts) meet only here, so either side can change alone.

export interface MailAttachment {
  filename: string;
  content: string;
  contentType: string;
}

export interface MailMessage {
  /** One recipient's address. */
  to: string;
  subject: string;
  text: string;
  html: string;
  headers: {
    /** `<msg_…@host>`: the same on every attempt, so a retried message is one message to the reader. */
    'Message-ID': string;
    'Reply-To'?: string;
  };
  attachments: MailAttachment[];
}
