import { describe, expect, it } from 'vitest';
import { CODE_GUESS_WINDOW_MS, codeGuessingWait } from './code-guessing.js';

describe('codeGuessingWait', () => {
  const at = (...seconds: number[]) => seconds.map((s) => s * 1000);
  it('lets an address try while it has fewer than 10 failures in the window', () => {
    expect(codeGuessingWait([], 0)).toBeNull();
    expect(codeGuessingWait(at(1, 2, 3, 4, 5, 6, 7, 8, 9), 10_000)).toBeNull();
  });
  it('waits until the oldest counted failure is 10 minutes old, or enough of them to leave fewer than 10', () => {
    expect(codeGuessingWait(at(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), 20_000)).toBe(580);
    expect(codeGuessingWait(at(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11), 20_000)).toBe(582);
    expect(codeGuessingWait(at(0, 1, 2, 3, 4, 5, 6, 7, 8, 9), CODE_GUESS_WINDOW_MS - 1)).toBe(1);
  });
});
