import type { Sql } from './sql.js';

/** What one departure (an experience at one start) holds: its places and what the operator set on it. */
export interface SlotState {
  /** Places taken (CONFIRMED + PENDING bookings). */
  booked: number;
  /** The departure's own capacity, or null: the experience's maxParticipants. */
  capacityOverride: number | null;
  /** Closed: it keeps its bookings but takes no new places. */
  closed: boolean;
  note: string | null;
}

/** A change of a departure's settings: a field left out keeps its value. */
export interface SlotChange {
  capacityOverride?: number | null;
  closed?: boolean;
  note?: string | null;
}

/**
 * The settings of departures, kept on their counter rows (`slot_counts`, migration 013) beside the
 * places: a booking's conditional upsert of that row (BookingStore.takePlaces) reads them under the
 * same lock, so a capacity lowered or a departure closed is never overtaken by a booking beside it.
 */
export interface SlotStore {
  /** A departure's places and settings; undefined when it has neither (nothing booked, nothing set). */
  getSlot(experienceId: string, slotStart: number): Promise<SlotState | undefined>;
  /** Every departure with a counter row whose start is in [from, to), by start. */
  slotsBetween(experienceId: string, from: number, to: number): Promise<Map<number, SlotState>>;
  /**
   * Applies a change in one statement; when it sets a capacity, only if the places already taken
   * fit under `capacityOverride ?? maxParticipants`. Answers the departure after it, or undefined
   * when the capacity would be below what is booked (nothing changed).
   */
  updateSlot(experienceId: string, slotStart: number, change: SlotChange, maxParticipants: number): Promise<SlotState | undefined>;
  /** Whether any booking (of any status) was ever made for this departure. */
  slotHasBookings(experienceId: string, slotStart: number): Promise<boolean>;
}

type RawSlot = [number, number, number | null, number, string | null];
const COLUMNS = 'slot_start, booked, capacity_override, closed, note';
const stateOf = (r: RawSlot): SlotState => ({ booked: Number(r[1]), capacityOverride: r[2] === null ? null : Number(r[2]), closed: Number(r[3]) === 1, note: r[4] });

export function slotStore(sql: Sql): SlotStore {
  return {
    async getSlot(experienceId, slotStart) {
      const [row] = await sql.values<RawSlot>(`SELECT ${COLUMNS} FROM slot_counts WHERE experience_id = ? AND slot_start = ?`, [experienceId, slotStart]);
      return row && stateOf(row);
    },
    async slotsBetween(experienceId, from, to) {
      const rows = await sql.values<RawSlot>(
        `SELECT ${COLUMNS} FROM slot_counts WHERE experience_id = ? AND slot_start >= ? AND slot_start < ? ORDER BY slot_start`,
        [experienceId, from, to],
      );
      return new Map(rows.map((r) => [Number(r[0]), stateOf(r)]));
    },
    async updateSlot(experienceId, slotStart, change, maxParticipants) {
      const setsCapacity = change.capacityOverride !== undefined;
      const setsClosed = change.closed !== undefined;
      const setsNote = change.note !== undefined;
      const capacity = change.capacityOverride ?? null;
      const closed = change.closed ? 1 : 0;
      const note = change.note ?? null;
      // A new row holds nothing booked, so any capacity fits it; an existing one takes the change
      // only if its places fit under the new capacity (when one is set). No row back: they did not.
      const [row] = await sql.values<RawSlot>(
        `INSERT INTO slot_counts (experience_id, slot_start, booked, capacity_override, closed, note)
          VALUES (?, ?, 0, ?, ?, ?)
          ON CONFLICT (experience_id, slot_start) DO UPDATE SET
            capacity_override = CASE WHEN CAST(? AS INTEGER) = 1 THEN excluded.capacity_override ELSE slot_counts.capacity_override END,
            closed = CASE WHEN CAST(? AS INTEGER) = 1 THEN excluded.closed ELSE slot_counts.closed END,
            note = CASE WHEN CAST(? AS INTEGER) = 1 THEN excluded.note ELSE slot_counts.note END
          WHERE CAST(? AS INTEGER) = 0 OR slot_counts.booked <= coalesce(excluded.capacity_override, CAST(? AS INTEGER))
          RETURNING ${COLUMNS}`,
        [
          experienceId, slotStart, capacity, closed, note,
          setsCapacity ? 1 : 0, setsClosed ? 1 : 0, setsNote ? 1 : 0,
          setsCapacity ? 1 : 0, maxParticipants,
        ],
      );
      return row && stateOf(row);
    },
    slotHasBookings: async (experienceId, slotStart) =>
      (await sql.get('SELECT 1 AS one FROM bookings WHERE experience_id = ? AND slot_start = ? LIMIT 1', [experienceId, slotStart])) !== undefined,
  };
}
