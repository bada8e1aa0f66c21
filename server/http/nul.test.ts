import { describe, expect, it } from 'vitest';
import { Refusal } from '../domain/refusal.js';
import { NUL_MESSAGE, nulPathsIn, refuseNulInBody, refuseNulInUrl } from './nul.js';

function refusal(run: () => void): Refusal {
  try {
    run();
  } catch (err) {
    if (err instanceof Refusal) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('finding NULs in a request', () => {
  it('names each string that holds one, by the path a validation error would use', () => {
    const body = { a: 'ok', b: 'x\u0000', list: [{ c: '\u0000' }, 'fine', ['\u0000']], deep: { er: { still: 'y\u0000z' } } };
    expect(nulPathsIn(body).map((d) => d.path)).toEqual(['b', 'list[0].c', 'list[2][0]', 'deep.er.still']);
    expect(nulPathsIn('\u0000')).toEqual([{ path: '', message: NUL_MESSAGE }]);
    expect(nulPathsIn({ n: 1, t: true, z: null })).toEqual([]);
  });

  it('names a key that holds one with the NUL written out, and does not look inside it', () => {
    expect(nulPathsIn({ metadata: { 'a\u0000b': 'also\u0000' } })).toEqual([
      { path: 'metadata.a\\u0000b', message: 'Field names must not contain the NUL character (U+0000)' },
    ]);
  });

  it('names at most twenty', () => {
    expect(nulPathsIn(Array.from({ length: 100 }, () => '\u0000'))).toHaveLength(20);
  });

  it('walks a body only when its text holds the escape, so an escaped backslash before u0000 is text', () => {
    expect(() => refuseNulInBody('{"a":"\\\\u0000"}', { a: '\\u0000' })).not.toThrow();
    const refused = refusal(() => refuseNulInBody('{"a":"\\u0000"}', { a: '\u0000' }));
    expect(refused).toMatchObject({ code: 'VALIDATION_ERROR', message: `Invalid body: a: ${NUL_MESSAGE}`, details: [{ path: 'a', message: NUL_MESSAGE }] });
  });

  it('refuses a path parameter before the query, and reads the URL only when it holds %00', () => {
    const params = () => ({ id: 'exp_\u0000' });
    expect(refusal(() => refuseNulInUrl('http://x/v1/experiences/exp_%00?q=%00', params))).toMatchObject({ details: [{ path: 'id' }] });
    expect(refusal(() => refuseNulInUrl('http://x/v1/bookings?q=a%00&a%00=1', () => ({})))).toMatchObject({
      message: `Invalid query: q: ${NUL_MESSAGE}`,
      details: [{ path: 'q' }, { path: 'a\\u0000' }],
    });
    let asked = false;
    // "%2500" is the text %00, no NUL: the URL never holds the three characters %00.
    refuseNulInUrl('http://x/v1/bookings/bk_1?q=%2500', () => ((asked = true), {}));
    expect(asked).toBe(false);
  });
});
