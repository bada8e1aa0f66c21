import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseWith } from './validate.js';
import { Refusal } from '../domain/refusal.js';

const Schema = z.strictObject({
  name: z.string().min(1),
  items: z.array(z.strictObject({ at: z.string().regex(/^\d\d:\d\d$/) })).optional(),
  nested: z.strictObject({ deep: z.strictObject({ n: z.int() }) }).optional(),
});

function failure(input: unknown): Refusal {
  try {
    parseWith(Schema, input);
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('expected a validation error');
}

/** A validation refusal's details: always a list of fields. */
const fieldsOf = (err: Refusal) => (Array.isArray(err.details) ? err.details : []);

describe('parseWith', () => {
  it('returns the parsed value', () => {
    expect(parseWith(Schema, { name: 'x' })).toEqual({ name: 'x' });
  });

  it('names each bad field with dots and [index]', () => {
    const err = failure({ name: '', items: [{ at: '10:00' }, { at: '9' }], nested: { deep: { n: 1.5 } } });
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(err.code).toBe('VALIDATION_ERROR');
    expect(fieldsOf(err).map((d) => d.path).sort()).toEqual(['items[1].at', 'name', 'nested.deep.n']);
    expect(err.message).toMatch(/^Invalid body: /);
  });

  it('names each unknown field on its own', () => {
    const err = failure({ name: 'x', a: 1, b: 2, items: [{ at: '10:00', c: 3 }] });
    expect(err.details).toHaveLength(3);
    expect(err.details).toEqual(expect.arrayContaining([
      { path: 'a', message: 'Unknown field' },
      { path: 'b', message: 'Unknown field' },
      { path: 'items[0].c', message: 'Unknown field' },
    ]));
  });

  it('says Required for a missing field', () => {
    expect(failure({}).details).toEqual([{ path: 'name', message: 'Required' }]);
  });

  it('names no path when the whole input is of the wrong type', () => {
    expect(fieldsOf(failure([]))[0]?.path).toBe('');
  });
});
