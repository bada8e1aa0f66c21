/**
 * The Calendar's departure dialogs: one slot's manifest (its guests, its own capacity, closed or
 * open, its note) from GET /v1/slots/{id} and GET /v1/manifest, changed with PATCH /v1/slots/{id};
 * and "Add departure" on a day, an exception of the experience's schedule for that date (its times
 * plus the new one) saved with PATCH /v1/experiences/{id}.
 */
import { Experience, Manifest, Slot, type ManifestBooking, type Schedule, type Weekday } from '../../shared/index.js';
import { batch, signal } from './signals.js';
import { formFailure, idleForm, sentenceFor, type AreaContext, type FormState } from './context.js';

export interface SlotDialog {
  kind: 'slot';
  experience: Experience;
  /** The experience's zone: the slot's times are read in it. */
  zone: string;
  date: string;
  slotId: string;
  startTime: string;
  slot: Slot | null;
  guests: ManifestBooking[] | null;
  /** The organization's zone (the manifest's), in which an offer's expiry is shown. */
  orgZone: string | null;
  loadError: string | null;
  /** The capacity form is shown. */
  editingCapacity: boolean;
  form: FormState;
  /** What the last change did, for the status line. */
  done: string | null;
}

export interface AddDialog {
  kind: 'add';
  experience: Experience;
  zone: string;
  date: string;
  form: FormState;
}

export type DepartureDialog = SlotDialog | AddDialog;

const WEEKDAY_OF: readonly Weekday[] = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];

/** The start times a schedule has on a local date: its exception for the date, else its weekly times within its dates. */
export function timesOn(schedule: Schedule | null, date: string): string[] {
  if (!schedule) return [];
  const exception = [...schedule.exceptions].reverse().find((x) => x.date === date);
  if (exception) return [...exception.times];
  if ((schedule.startDate && date < schedule.startDate) || (schedule.endDate && date > schedule.endDate)) return [];
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return [...(schedule.weekly[WEEKDAY_OF[new Date(Date.UTC(y, m - 1, d)).getUTCDay()]!] ?? [])];
}

/** The schedule with one more start on `date`: an exception holding that date's times plus `time`. */
export function withDeparture(schedule: Schedule | null, date: string, time: string): Schedule {
  const base: Schedule = schedule ?? { timezone: null, weekly: {}, startDate: null, endDate: null, exceptions: [] };
  const times = [...new Set([...timesOn(base, date), time])].sort();
  return { ...base, exceptions: [...base.exceptions.filter((x) => x.date !== date), { date, times }].sort((a, b) => (a.date < b.date ? -1 : 1)) };
}

export function createDeparturesModel(ctx: AreaContext, reload: () => void) {
  const dialog = signal<DepartureDialog | null>(null);
  /** Where focus goes back to when the dialog closes. */
  let opener: string | null = null;

  const update = (change: Partial<SlotDialog>): void => {
    const d = dialog.peek();
    if (d?.kind === 'slot') dialog.value = { ...d, ...change };
  };

  async function loadSlot(d: SlotDialog): Promise<void> {
    try {
      const [slot, manifest] = await Promise.all([
        ctx.http.get(Slot, `/v1/slots/${d.slotId}`),
        ctx.http.get(Manifest, '/v1/manifest', { date: d.date, experienceId: d.experience.id }),
      ]);
      const guests = manifest.slots.find((s) => s.timeSlot.id === d.slotId)?.bookings ?? [];
      if (dialog.peek()?.kind === 'slot' && (dialog.peek() as SlotDialog).slotId === d.slotId) update({ slot, guests, orgZone: manifest.timezone, loadError: null });
    } catch (e) {
      if (ctx.ended(e)) return;
      update({ loadError: sentenceFor(e) });
    }
  }

  async function change(body: { closed?: boolean; capacity?: number | null; note?: string | null }, done: string): Promise<void> {
    const d = dialog.peek();
    if (d?.kind !== 'slot' || d.form.busy) return;
    update({ form: { ...idleForm, busy: true }, done: null });
    try {
      const slot = await ctx.http.send(Slot, 'PATCH', `/v1/slots/${d.slotId}`, body);
      update({ slot, form: idleForm, editingCapacity: false, done });
      reload();
    } catch (e) {
      if (ctx.ended(e)) return;
      update({ form: formFailure(e) });
    }
  }

  return {
    dialog,
    openSlot(experience: Experience, zone: string, date: string, slot: { id: string; startTime: string }): void {
      opener = `slot-${slot.id}`;
      const d: SlotDialog = {
        kind: 'slot', experience, zone, date, slotId: slot.id, startTime: slot.startTime,
        slot: null, guests: null, orgZone: null, loadError: null, editingCapacity: false, form: idleForm, done: null,
      };
      dialog.value = d;
      void loadSlot(d);
    },
    openAdd(experience: Experience, zone: string, date: string): void {
      opener = `add-${experience.id}-${date}`;
      dialog.value = { kind: 'add', experience, zone, date, form: idleForm };
    },
    close(): void {
      // Asked before the render that removes the dialog, which takes the request.
      if (opener) ctx.focus(opener);
      batch(() => (dialog.value = null));
    },
    setClosed: (closed: boolean) => change({ closed }, closed ? 'Departure closed: it takes no new bookings.' : 'Departure reopened.'),
    editCapacity: (editing: boolean) => update({ editingCapacity: editing, form: idleForm }),
    /** An empty field gives back the experience's capacity. */
    saveCapacity(value: string): Promise<void> {
      const text = value.trim();
      const capacity = text === '' ? null : Number(text);
      if (capacity !== null && !(Number.isInteger(capacity) && capacity >= 0 && capacity <= 10_000)) {
        update({ form: { ...idleForm, fields: { capacity: 'Enter a whole number from 0 to 10000, or leave it empty.' } } });
        return Promise.resolve();
      }
      return change({ capacity }, capacity === null ? 'Capacity back to the experience’s.' : `Capacity set to ${capacity}.`);
    },
    saveNote: (value: string) => change({ note: value.trim() === '' ? null : value.trim() }, 'Note saved.'),
    async addDeparture(time: string): Promise<void> {
      const d = dialog.peek();
      if (d?.kind !== 'add' || d.form.busy) return;
      if (!/^\d{2}:\d{2}$/.test(time)) {
        dialog.value = { ...d, form: { ...idleForm, fields: { time: 'Enter a time, e.g. 16:30.' } } };
        return;
      }
      dialog.value = { ...d, form: { ...idleForm, busy: true } };
      try {
        const schedule = withDeparture(d.experience.schedule, d.date, time);
        await ctx.http.send(Experience, 'PATCH', `/v1/experiences/${d.experience.id}`, { schedule });
        if (opener) ctx.focus(opener);
        dialog.value = null;
        reload();
      } catch (e) {
        if (ctx.ended(e)) return;
        const now = dialog.peek();
        if (now?.kind === 'add') dialog.value = { ...now, form: formFailure(e) };
      }
    },
    /** The slot changed elsewhere (a waitlist offer ended): its dialog and the week read it again. */
    refresh(slotId: string): void {
      const d = dialog.peek();
      if (d?.kind !== 'slot' || d.slotId !== slotId) return;
      void loadSlot(d);
      reload();
    },
    reset(): void {
      dialog.value = null;
    },
  };
}

export type DeparturesModel = ReturnType<typeof createDeparturesModel>;
