/**
 * The manage page's only way to Outing: /public/v1/manage, with the guest's token in the
 * X-Manage-Token header and nowhere else (not in an address, never with a Referer); and, for the
 * link of a waitlist offer, /public/v1/waitlist/offer with the same token in X-Waitlist-Token.
 */
import type { Availability, ErrorDetail, ManagedBooking, ManageUpdate, WaitlistAccepted, WaitlistOffer } from '../../shared/index.js';
import { ApiError } from '../api.js';

export { ApiError };

export interface ManageApi {
  get(): Promise<ManagedBooking>;
  cancel(reason?: string): Promise<ManagedBooking>;
  reschedule(startTime: string): Promise<ManagedBooking>;
  /** The party (participants or tickets) or the name and phone. */
  update(change: ManageUpdate): Promise<ManagedBooking>;
  /** Slots of the booking's experience between two local dates (`YYYY-MM-DD`) of its zone. */
  availability(startDate: string, endDate: string): Promise<Availability>;
  /** The booking's .ics file, for a plain download link: the token rides in the query (never logged). */
  calendarUrl: string;
  /** A waitlist offer's link: the offer, whatever became of it. */
  offer(): Promise<WaitlistOffer>;
  /** Books the offered places (a booking awaiting payment carries its `checkoutUrl`). */
  acceptOffer(): Promise<WaitlistAccepted>;
  /** Lets the offered places go to the next guest waiting. */
  declineOffer(): Promise<WaitlistOffer>;
}

export interface ManageApiOptions {
  /** Origin (optionally with a path) of the Outing server. */
  base: string;
  token: string;
  signal?: AbortSignal;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null;
const isManaged = (v: unknown): boolean => isRecord(v) && isRecord(v['booking']) && isRecord(v['organization']);
const isAvailability = (v: unknown): boolean => isRecord(v) && Array.isArray(v['slots']) && v['slots'].every(isRecord);
const isOffer = (v: unknown): boolean => isRecord(v) && isRecord(v['entry']) && isRecord(v['organization']);
const isAccepted = (v: unknown): boolean => isOffer(v) && isRecord((v as Record<string, unknown>)['booking']);

export function createManageApi({ base, token, signal }: ManageApiOptions): ManageApi {
  const origin = base.replace(/\/+$/, '');
  const root = `${origin}/public/v1/manage`;
  const offerRoot = `${origin}/public/v1/waitlist/offer`;

  async function call<T>(path: string, check: (data: unknown) => boolean, body?: unknown, waitlist = false): Promise<T> {
    const headers: Record<string, string> = waitlist ? { 'X-Waitlist-Token': token } : { 'X-Manage-Token': token };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    let res: Response | undefined;
    let answer: unknown;
    try {
      res = await fetch((waitlist ? offerRoot : root) + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        credentials: 'omit',
        referrerPolicy: 'no-referrer',
        cache: 'no-store',
        signal,
      });
      answer = await res.json();
    } catch (e) {
      if (!res) throw new ApiError(0, 'NETWORK', String(e));
    }
    if (isRecord(answer)) {
      if (answer['success'] === true && check(answer['data'])) return answer['data'] as T;
      const error = answer['error'];
      if (isRecord(error) && typeof error['code'] === 'string') {
        const details = Array.isArray(error['details']) ? (error['details'] as ErrorDetail[]) : [];
        throw new ApiError(res.status, error['code'], String(error['message']), details);
      }
    }
    throw new ApiError(res.status, 'BAD_RESPONSE', `Unexpected answer (${res.status})`);
  }

  return {
    get: () => call('', isManaged),
    cancel: (reason) => call('/cancel', isManaged, reason ? { reason } : {}),
    reschedule: (startTime) => call('/reschedule', isManaged, { startTime }),
    update: (change) => call('/update', isManaged, change),
    availability: (startDate, endDate) =>
      call(`/availability?${new URLSearchParams({ startDate, endDate }).toString()}`, isAvailability),
    calendarUrl: `${root}/calendar.ics?${new URLSearchParams({ token }).toString()}`,
    offer: () => call('', isOffer, undefined, true),
    acceptOffer: () => call('/accept', isAccepted, {}, true),
    declineOffer: () => call('/decline', isOffer, {}, true),
  };
}
