// A queued message turned into the finished e-mail. Loaded on the first send (it brings the
// calendar library), so a server without mail to send never pays for it at start.
import type { BookingView } from '../store/bookings.js';
import type { MessageRow } from '../store/messages.js';
import type { OrganizationRow } from '../store/organizations.js';
import type { Store } from '../store/index.js';
import { composeGuestMessage, type Sender } from '../mail/compose.js';
import type { MailMessage } from '../mail/message.js';
import { composeOperatorNotice, composeUserInvite } from '../mail/notices.js';
import { composeGiftVoucherMessage } from '../mail/gift-voucher.js';
import { composeWaitlistMessage } from '../mail/waitlist.js';
import { guestLocaleOf } from '../mail/texts.js';
import { storedTicketsOf } from '../domain/tickets.js';
import { issueWaitlistToken, offerTotalCents } from './waitlist-offer.js';
import { zoneOf } from './availability.js';
import { issueManageToken } from './messages.js';
import { guestInfoOf } from './self-service.js';
import { SETUP_LINK_TTL_MS } from './users.js';

export interface ComposeSettings {
  /** PUBLIC_URL: the manage link's origin, and its host names the Message-ID and calendar UID. */
  publicUrl: string;
}

/** The organization as its e-mails present it: name and contact, brand colour and logo. */
export const senderOf = (org: OrganizationRow): Sender => ({
  name: org.name,
  email: org.email,
  phone: org.phone,
  brandColor: org.brandColor,
  logoUrl: org.logoUrl,
});

/**
 * The finished e-mail of a queued message, composed from the booking (or user) as it stands now. A
 * guest message that offers the manage link carries a new token (older ones stay valid). Undefined
 * when the booking or user is gone; an invite whose link is gone throws (it ends FAILED).
 */
export async function composeQueuedMessage(store: Store, message: MessageRow, settings: ComposeSettings, now: number): Promise<MailMessage | undefined> {
  const org = await store.organizations.getOrganization(message.orgId);
  if (!org) return undefined;
  const host = new URL(settings.publicUrl).host;
  if (message.kind === 'USER_INVITE') {
    const user = message.userId === null ? undefined : await store.users.getUser(message.userId);
    if (!user || user.orgId !== message.orgId) return undefined;
    if (message.setupUrl === null) throw new Error('the setup link is no longer kept');
    return composeUserInvite({
      user: { name: user.name, email: message.to, role: user.role },
      organization: senderOf(org),
      setupUrl: message.setupUrl,
      validHours: SETUP_LINK_TTL_MS / 3_600_000,
      messageId: message.id,
      host,
    });
  }
  if (message.kind === 'GIFT_VOUCHER') {
    const voucher = message.giftVoucherId === null ? undefined : await store.giftVouchers.getVoucher(message.orgId, message.giftVoucherId);
    if (!voucher) return undefined;
    // A voucher has no guest yet: it speaks the organization's language.
    return composeGiftVoucherMessage({
      locale: guestLocaleOf(org.defaultLocale),
      voucher: {
        code: voucher.code,
        amountCents: voucher.amount,
        currency: voucher.currency,
        expiresAt: voucher.expiresAt,
        recipientName: voucher.recipientName,
        message: voucher.message,
      },
      timeZone: org.timezone,
      organization: senderOf(org),
      to: message.to,
      messageId: message.id,
      host,
    });
  }
  if (message.kind === 'WAITLIST_JOINED' || message.kind === 'WAITLIST_OFFER') {
    return await composeWaitlistQueued(store, message, org, settings, now);
  }
  if (message.bookingId === null) return undefined;
  const booking: BookingView | undefined = await store.bookings.getBooking(message.orgId, message.bookingId);
  const exp = booking && await store.experiences.getExperience(message.orgId, booking.experienceId);
  if (!booking || !exp) return undefined;
  if (message.kind === 'OPERATOR_NOTICE') {
    return composeOperatorNotice({
      event: message.noticeOf ?? 'BOOKING_UPDATED',
      booking,
      timeZone: zoneOf(exp, org.timezone),
      organization: senderOf(org),
      to: message.to,
      dashboardUrl: `${settings.publicUrl}/dashboard/bookings/${encodeURIComponent(booking.id)}`,
      messageId: message.id,
      host,
    });
  }
  const manageUrl =
    message.kind === 'BOOKING_CANCELLED' ? undefined : `${settings.publicUrl}/manage#${await issueManageToken(store, booking.id, now)}`;
  const composed = composeGuestMessage({
    kind: message.kind,
    locale: guestLocaleOf(booking.locale),
    booking,
    timeZone: zoneOf(exp, org.timezone),
    organization: senderOf(org),
    ...(manageUrl ? { manageUrl } : {}),
    messageId: message.id,
    host,
    guestInfo: guestInfoOf(exp),
  });
  return { ...composed, to: message.to };
}

/**
 * A waitlist entry's e-mail, from the entry as it stands now: the joined one gives its position while
 * it waits; the offer one carries a new token (minted here, so only the link of an e-mail actually
 * composed opens the offer) and is not sent once the offer has ended: its places are no longer held.
 */
async function composeWaitlistQueued(
  store: Store,
  message: MessageRow,
  org: OrganizationRow,
  settings: ComposeSettings,
  now: number,
): Promise<MailMessage | undefined> {
  const entry = message.waitlistEntryId === null ? undefined : await store.waitlist.getEntry(message.orgId, message.waitlistEntryId);
  const exp = entry && (await store.experiences.getExperience(message.orgId, entry.experienceId));
  if (!entry || !exp) return undefined;
  const offer = message.kind === 'WAITLIST_OFFER';
  let offerUrl: string | undefined;
  if (offer) {
    if (entry.status !== 'OFFERED' || entry.offerExpiresAt === null || entry.offerExpiresAt <= now) {
      throw new Error(`the offer is no longer open (the entry is ${entry.status === 'OFFERED' ? 'past its offer' : entry.status})`);
    }
    const token = await issueWaitlistToken(store, entry.id, now);
    if (token === undefined) throw new Error('the offer is no longer open');
    offerUrl = `${settings.publicUrl}/manage#${token}`;
  }
  const locale = guestLocaleOf(entry.locale);
  return composeWaitlistMessage({
    kind: message.kind as 'WAITLIST_JOINED' | 'WAITLIST_OFFER',
    locale,
    entry: {
      guestName: entry.guestName,
      experienceName: exp.name,
      slotStart: entry.slotStart,
      slotEnd: entry.slotEnd,
      tickets: storedTicketsOf(entry.tickets),
      participants: entry.totalParticipants,
      position: entry.status === 'WAITING' ? await store.waitlist.waitingPosition(entry) : null,
      totalCents: offer ? await offerTotalCents(store, org, exp, entry, now) : 0,
      currency: org.currency,
      offerExpiresAt: entry.offerExpiresAt,
    },
    timeZone: zoneOf(exp, org.timezone),
    organization: senderOf(org),
    ...(offerUrl ? { offerUrl } : {}),
    to: message.to,
    messageId: message.id,
    host: new URL(settings.publicUrl).host,
  });
}
