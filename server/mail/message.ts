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
  /**
   * The display name of From: the organization's name. The address stays MAIL_FROM's; the transport
   * encodes the name (RFC 2047) when it needs to.
   */
  fromName?: string;
  subject: string;
  text: string;
  html: string;
  headers: {
    /** `<msg_…@host>`: the same on every attempt, so a retried message is one message to the reader. */
    'Message-ID': string;
    'Reply-To'?: string;
    /** The language the message is written in (`en`, `pt`, …), as its `<html lang>` says too. */
    'Content-Language': string;
  };
  attachments: MailAttachment[];
}

export interface MailTransport {
  /** Resolves once the server took the message; throws a SendFailure otherwise. */
  send(message: MailMessage): Promise<{ accepted: boolean }>;
}

export type SendFailureKind = 'temporary' | 'permanent';

/**
 * Why a message was not sent. `temporary`: no answer (connection refused, DNS, TLS, a timeout) or a
 * 4xx reply, worth another attempt later. `permanent`: a 5xx reply (or a message the transport
 * cannot send at all), the same attempt would fail again. The message never holds credentials.
 */
export class SendFailure extends Error {
  override readonly name = 'SendFailure';
  constructor(
    readonly kind: SendFailureKind,
    message: string,
    /** The SMTP reply code, when the server gave one. */
    readonly responseCode: number | null = null,
  ) {
    super(message);
  }
}
