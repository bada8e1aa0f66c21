// Notices to the operator: which booking events an organization is told of, and where. The
// organization keeps both lists as JSON text; these read them, tolerating nothing but arrays of strings.
import { DEFAULT_NOTICE_EVENTS, NOTICE_EVENTS, type NoticeEvent } from '../../shared/index.js';

interface NoticeSettings {
  notificationEmails: string;
  notifyOn: string;
}

function strings(json: string): string[] | undefined {
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) && parsed.every((s) => typeof s === 'string') ? parsed : undefined;
  } catch {
    return undefined;
  }
}

/** The addresses notices go to. */
export const notificationEmailsOf = (org: NoticeSettings): string[] => strings(org.notificationEmails) ?? [];

/** The event kinds that send a notice, in the order the organization chose them. */
export function notifyOnOf(org: NoticeSettings): NoticeEvent[] {
  const list = strings(org.notifyOn);
  if (!list) return [...DEFAULT_NOTICE_EVENTS];
  return list.filter((kind): kind is NoticeEvent => (NOTICE_EVENTS as readonly string[]).includes(kind));
}

/**
 * Where a booking event's notice goes: every notice address when the organization asked to hear of
 * this kind, none for a check-in alone (or its undoing): the guest is standing in front of the operator.
 */
export function noticeAddressesFor(org: NoticeSettings, event: string, changedFields: readonly string[] = []): string[] {
  if (!(NOTICE_EVENTS as readonly string[]).includes(event)) return [];
  if (!notifyOnOf(org).includes(event as NoticeEvent)) return [];
  if (event === 'BOOKING_UPDATED' && changedFields.length === 1 && changedFields[0] === 'checkedInAt') return [];
  return notificationEmailsOf(org);
}
