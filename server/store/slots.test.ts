import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from './index.js';
import { openTestStore, testEngine } from '../test-helpers/index.js';

// A departure's settings on its counter row (migration 013): the same expectations on both engines.

const SLOT = Date.UTC(2030, 0, 1, 10);
const LATER = SLOT + 3_600_000;

describe(`slot store (${testEngine()})`, () => {
  let opened: Awaited<ReturnType<typeof openTestStore>>;
  let store: Store;
  beforeEach(async () => {
    opened = await openTestStore();
    store = opened.store;
  });
  afterEach(async () => {
    await opened.close();
  });

  it('has nothing for a departure never booked nor set', async () => {
    expect(await store.slots.getSlot('exp_x', SLOT)).toBeUndefined();
    expect(await store.slots.slotsBetween('exp_x', SLOT, LATER + 1)).toEqual(new Map());
  });

  it('sets the fields it is given and keeps the others', async () => {
    expect(await store.slots.updateSlot('exp_x', SLOT, { note: 'Windy' }, 10)).toEqual({ booked: 0, capacityOverride: null, closed: false, note: 'Windy' });
    expect(await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: 4, closed: true }, 10)).toEqual({ booked: 0, capacityOverride: 4, closed: true, note: 'Windy' });
    expect(await store.slots.updateSlot('exp_x', SLOT, { note: null, capacityOverride: null }, 10)).toEqual({ booked: 0, capacityOverride: null, closed: true, note: null });
    await store.bookings.addBookedPlaces('exp_x', LATER, 2);
    expect(await store.slots.slotsBetween('exp_x', SLOT, LATER + 1)).toEqual(
      new Map([
        [SLOT, { booked: 0, capacityOverride: null, closed: true, note: null }],
        [LATER, { booked: 2, capacityOverride: null, closed: false, note: null }],
      ]),
    );
  });

  it('refuses a capacity below the places booked, the experience’s included, and changes nothing', async () => {
    await store.bookings.addBookedPlaces('exp_x', SLOT, 5);
    expect(await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: 4, note: 'x' }, 10)).toBeUndefined();
    expect(await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: 5 }, 10)).toMatchObject({ capacityOverride: 5 });
    expect(await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: null }, 4)).toBeUndefined();
    expect(await store.slots.getSlot('exp_x', SLOT)).toEqual({ booked: 5, capacityOverride: 5, closed: false, note: null });
    // Without a capacity in the change, nothing is checked.
    expect(await store.slots.updateSlot('exp_x', SLOT, { closed: true }, 1)).toMatchObject({ booked: 5, closed: true });
  });

  it('makes takePlaces follow the override and refuse a closed departure', async () => {
    await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: 3 }, 10);
    expect(await store.bookings.takePlaces('exp_x', SLOT, 4, 10)).toBe(false);
    expect(await store.bookings.takePlaces('exp_x', SLOT, 3, 10)).toBe(true);
    expect(await store.bookings.takePlaces('exp_x', SLOT, 1, 10)).toBe(false);
    await store.slots.updateSlot('exp_x', SLOT, { capacityOverride: 12, closed: true }, 10);
    expect(await store.bookings.takePlaces('exp_x', SLOT, 1, 10)).toBe(false);
    await store.slots.updateSlot('exp_x', SLOT, { closed: false }, 10);
    expect(await store.bookings.takePlaces('exp_x', SLOT, 9, 10)).toBe(true);
    expect(await store.slots.getSlot('exp_x', SLOT)).toMatchObject({ booked: 12 });
    // Places given back from a closed departure are never refused.
    await store.slots.updateSlot('exp_x', SLOT, { closed: true }, 10);
    await store.bookings.addBookedPlaces('exp_x', SLOT, -2);
    expect(await store.slots.getSlot('exp_x', SLOT)).toMatchObject({ booked: 10, closed: true });
  });

  it('keeps a note of 500 characters and no longer (CHECK)', async () => {
    expect(await store.slots.updateSlot('exp_x', SLOT, { note: 'n'.repeat(500) }, 10)).toMatchObject({ note: 'n'.repeat(500) });
    await expect(store.slots.updateSlot('exp_x', SLOT, { note: 'n'.repeat(501) }, 10)).rejects.toThrow();
  });
});
