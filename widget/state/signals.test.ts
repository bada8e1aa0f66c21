import { describe, expect, it } from 'vitest';
import { batch, computed, effect, signal, untracked } from './signals.js';

describe('signals', () => {
  it('re-runs an effect when a signal it read changes, and not for one it did not', () => {
    const a = signal(1);
    const b = signal(10);
    const seen: number[] = [];
    effect(() => {
      seen.push(a.value);
    });
    a.value = 2;
    b.value = 11;
    a.value = 2;
    expect(seen).toEqual([1, 2]);
  });

  it('tracks only what the last run read', () => {
    const useA = signal(true);
    const a = signal('a');
    const b = signal('b');
    const seen: string[] = [];
    effect(() => {
      seen.push(useA.value ? a.value : b.value);
    });
    useA.value = false;
    a.value = 'A';
    b.value = 'B';
    expect(seen).toEqual(['a', 'b', 'B']);
  });

  it('runs an effect once for the writes of a batch', () => {
    const a = signal(1);
    const b = signal(2);
    let runs = 0;
    effect(() => {
      runs++;
      void (a.value + b.value);
    });
    batch(() => {
      a.value = 3;
      b.value = 4;
      batch(() => {
        a.value = 5;
      });
    });
    expect(runs).toBe(2);
  });

  it('derives values with computed, which subscribe the effect to their sources', () => {
    const price = signal(25);
    const people = signal(2);
    const total = computed(() => price.value * people.value);
    const seen: number[] = [];
    effect(() => {
      seen.push(total.value);
    });
    people.value = 3;
    expect(seen).toEqual([50, 75]);
    expect(total.peek()).toBe(75);
  });

  it('neither peek nor untracked subscribes', () => {
    const a = signal(1);
    let runs = 0;
    effect(() => {
      runs++;
      a.peek();
      untracked(() => a.value);
    });
    a.value = 2;
    expect(runs).toBe(1);
  });

  it('stops an effect', () => {
    const a = signal(1);
    let runs = 0;
    const stop = effect(() => {
      runs++;
      void a.value;
    });
    stop();
    a.value = 2;
    expect(runs).toBe(1);
  });

  it('lets an effect write a signal another effect reads, without nesting runs', () => {
    const source = signal(1);
    const doubled = signal(0);
    const seen: number[] = [];
    effect(() => {
      doubled.value = source.value * 2;
    });
    effect(() => {
      seen.push(doubled.value);
    });
    source.value = 5;
    expect(seen).toEqual([2, 10]);
  });

  it('does not re-run an effect when a computed it read comes out the same, and computes only when read', () => {
    const n = signal(2);
    let computes = 0;
    const even = computed(() => (computes++, n.value % 2 === 0));
    expect(computes).toBe(0);
    let runs = 0;
    effect(() => {
      runs++;
      void even.value;
    });
    n.value = 4;
    expect([runs, computes]).toEqual([1, 2]);
    n.value = 5;
    expect([runs, computes]).toEqual([2, 3]);
  });

  it('runs every effect a write concerns even when one throws, then throws its error', () => {
    const a = signal(0);
    const seen: number[] = [];
    effect(() => {
      if (a.value === 1) throw new Error('boom');
    });
    effect(() => {
      seen.push(a.value);
    });
    expect(() => (a.value = 1)).toThrow('boom');
    expect(seen).toEqual([0, 1]);
    a.value = 2;
    expect(seen).toEqual([0, 1, 2]);
  });
});
