/**
 * A departure's waitlist, as Today and the Calendar's departure dialog show it: its entries from
 * GET /v1/waitlist (on that slot's start), and "Remove" (DELETE /v1/waitlist/{id}) after a question.
 * Removing an entry that holds an offer frees its places, so whoever shows the slot reads it again.
 */
import { WaitlistEntry } from '../../shared/index.js';
import { batch, signal } from './signals.js';
import { sentenceFor, type AreaContext } from './context.js';

export interface SlotRef {
  experienceId: string;
  slotId: string;
  startTime: string;
}

export interface SlotWaitlist {
  entries: WaitlistEntry[] | null;
  loading: boolean;
  error: string | null;
}

export interface Removal {
  entry: WaitlistEntry;
  busy: boolean;
  error: string | null;
}

/** Live entries first (the offers, then the queue in its order), then the finished ones, newest first. */
const RANK: Record<WaitlistEntry['status'], number> = { OFFERED: 0, WAITING: 1, BOOKED: 2, EXPIRED: 2, CANCELLED: 2 };
export function inOrder(entries: readonly WaitlistEntry[]): WaitlistEntry[] {
  const key = (e: WaitlistEntry): string => (e.status === 'WAITING' ? String(e.position ?? 0).padStart(6, '0') : e.createdAt);
  return [...entries].sort((a, b) => RANK[a.status] - RANK[b.status] || (RANK[a.status] === 2 ? key(b).localeCompare(key(a)) : key(a).localeCompare(key(b))));
}

export const isLive = (e: WaitlistEntry): boolean => e.status === 'WAITING' || e.status === 'OFFERED';

export function createWaitlistModel(ctx: AreaContext, changed: (slotId: string) => void) {
  /** Slot id → its waitlist as last read. */
  const lists = signal<ReadonlyMap<string, SlotWaitlist>>(new Map());
  /** Slots whose waitlist Today shows opened. */
  const shown = signal<ReadonlySet<string>>(new Set());
  const removal = signal<Removal | null>(null);
  /** What the last removal did, for the status line. */
  const done = signal<string | null>(null);
  const refs = new Map<string, SlotRef>();
  let generation = 0;

  const put = (slotId: string, state: SlotWaitlist) => {
    lists.value = new Map(lists.peek()).set(slotId, state);
  };

  async function load(ref: SlotRef): Promise<void> {
    refs.set(ref.slotId, ref);
    const mine = generation;
    put(ref.slotId, { entries: lists.peek().get(ref.slotId)?.entries ?? null, loading: true, error: null });
    try {
      // One slot: its start is both ends of the (inclusive) range. A slot's list is short; 100 covers it.
      const page = await ctx.http.list(WaitlistEntry, '/v1/waitlist', {
        experienceId: ref.experienceId,
        startDate: ref.startTime,
        endDate: ref.startTime,
        limit: 100,
      });
      if (mine !== generation) return;
      put(ref.slotId, { entries: inOrder(page.data.filter((e) => e.timeSlot.startTime === ref.startTime)), loading: false, error: null });
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      put(ref.slotId, { entries: lists.peek().get(ref.slotId)?.entries ?? null, loading: false, error: sentenceFor(e) });
    }
  }

  return {
    lists,
    shown,
    removal,
    done,
    load,
    /** A departure's dialog opens: its list is read afresh. */
    open(ref: SlotRef): void {
      done.value = null;
      void load(ref);
    },
    /** Today's "Show waitlist": opens (and reads) or closes a slot's list. */
    toggle(ref: SlotRef): void {
      done.value = null;
      const next = new Set(shown.peek());
      if (next.delete(ref.slotId)) {
        shown.value = next;
        return;
      }
      shown.value = next.add(ref.slotId);
      void load(ref);
    },
    /** "Remove" asks first; the question names the guest. */
    askRemove(entry: WaitlistEntry): void {
      batch(() => {
        done.value = null;
        removal.value = { entry, busy: false, error: null };
      });
    },
    keep(): void {
      const r = removal.peek();
      if (!r || r.busy) return;
      ctx.focus(`remove-${r.entry.id}`);
      removal.value = null;
    },
    async confirmRemove(): Promise<void> {
      const r = removal.peek();
      if (!r || r.busy) return;
      removal.value = { ...r, busy: true, error: null };
      try {
        const entry = await ctx.http.send(WaitlistEntry, 'DELETE', `/v1/waitlist/${encodeURIComponent(r.entry.id)}`);
        const slotId = entry.timeSlot.id;
        batch(() => {
          removal.value = null;
          done.value = `${entry.guestName} is off the waitlist${r.entry.status === 'OFFERED' ? '; the places held for the offer are free again' : ''}.`;
        });
        ctx.focus(`waitlist-${slotId}`);
        const ref = refs.get(slotId);
        if (ref) void load(ref);
        changed(slotId);
      } catch (e) {
        if (ctx.ended(e)) return;
        removal.value = { ...r, busy: false, error: sentenceFor(e) };
      }
    },
    reset(): void {
      generation++;
      refs.clear();
      batch(() => {
        lists.value = new Map();
        shown.value = new Set();
        removal.value = null;
        done.value = null;
      });
    },
  };
}

export type WaitlistModel = ReturnType<typeof createWaitlistModel>;
