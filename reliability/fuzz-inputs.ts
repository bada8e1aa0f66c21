/**
 * Inputs for the route fuzz: values drawn from the OpenAPI document's JSON Schemas ("valid-ish"),
 * then broken on purpose (wrong types, missing and unknown fields, huge, deep, odd text).
 *
 * Safety: a fuzzed webhook or calendar URL would be fetched by the server. Every URL this module
 * makes points at 127.0.0.1 on a closed port, or is not a fetchable URL at all: nothing leaves the machine.
 */
import type { Random } from './support.js';

export type Schema = Record<string, any>;

export interface Ids {
  /** Existing ids by kind (experience, booking, customer, webhookEndpoint, delivery, feed, import, event, payment). */
  byKind: Map<string, string[]>;
  /** Every id above, for the wrong-kind cases. */
  all: string[];
}

const DEEP = '\u0000deep:';

/**
 * The C0 control characters (NUL included) and DEL, one string each: a NUL must be refused alike by
 * both engines (PostgreSQL cannot store one), the others kept or refused alike.
 */
export const CONTROL_CHARACTERS = [...Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)), '\u007f'];

/** JSON text of a body from `value`/`mutate`, with the deep-nesting markers written out. */
export function serialize(body: unknown): string {
  const text = JSON.stringify(body) ?? 'null';
  return text.replace(/"\\u0000deep:(\d+)"/g, (_, depth: string) => {
    const n = Number(depth);
    return `${'{"a":['.repeat(n)}"bottom"${']}'.repeat(n)}`;
  });
}

export class InputMaker {
  constructor(
    private readonly random: Random,
    private readonly components: Record<string, Schema>,
    private readonly safeUrls: readonly string[],
    private readonly ids: Ids,
  ) {}

  private resolve(schema: Schema): Schema {
    let s = schema;
    for (let i = 0; i < 10 && typeof s.$ref === 'string'; i++) s = this.components[String(s.$ref).split('/').pop() ?? ''] ?? {};
    return s;
  }

  /** Odd values of any type: what a careless or hostile client sends in place of the right one. */
  oddValue(): unknown {
    const r = this.random;
    return r.pick<() => unknown>([
      () => null,
      () => true,
      () => 0,
      () => -1,
      () => 1.5,
      () => 1e308,
      () => -9007199254740993,
      () => '',
      () => ' ',
      () => 'x'.repeat(r.pick([201, 501, 5001, 70_000])),
      () => '\u0000\u0001\u001f',
      () => '\u0000',
      () => r.pick(CONTROL_CHARACTERS),
      () => `Ana${r.pick(CONTROL_CHARACTERS)}Costa`,
      () => CONTROL_CHARACTERS.join(''),
      () => '\u001b[31mred\u001b[0m\r\nSet-Cookie: x=1',
      () => 'Ana\u202Eelif.exe',
      () => '\u2067مرحبا\u2069',
      () => '\ud800 lone surrogate',
      () => '😀👩‍👩‍👧‍👦 ﷽ Ω',
      () => '<script>alert(1)</script>',
      () => "'; DROP TABLE bookings; --",
      () => '../../etc/passwd',
      () => '2026-02-30T25:61:00Z',
      () => '2026-12-01T09:00:00',
      () => '9999-12-31',
      () => '0000-01-01T00:00:00Z',
      () => [],
      () => [1, 'two', null],
      () => ({}),
      () => ({ nested: { deeper: [{}] } }),
      () => r.pick(this.ids.all.length ? this.ids.all : ['exp_x']),
    ])();
  }

  /** A value shaped by `schema`, usually valid, with the schema's edges sometimes crossed. */
  value(schema: Schema, name = '', depth = 0): unknown {
    const r = this.random;
    const s = this.resolve(schema);
    if (/url/i.test(name) || s.format === 'uri') return r.pick(this.safeUrls);
    if (depth > 6) return null;
    if ('const' in s) return s.const;
    if (Array.isArray(s.enum)) return r.chance(0.9) ? r.pick(s.enum) : 'NOT_IN_ENUM';
    const options = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
    if (options?.length) return this.value(r.pick(options), name, depth + 1);
    if (Array.isArray(s.allOf) && s.allOf.length) return this.value(s.allOf[0] as Schema, name, depth + 1);
    const type = Array.isArray(s.type) ? r.pick(s.type as string[]) : (s.type as string | undefined);
    switch (type) {
      case 'null':
        return null;
      case 'boolean':
        return r.chance(0.5);
      case 'integer':
      case 'number': {
        const min = typeof s.minimum === 'number' ? s.minimum : -5;
        const max = typeof s.maximum === 'number' ? Math.min(s.maximum, min + 1000) : min + 100;
        if (r.chance(0.1)) return r.pick([min - 1, (s.maximum ?? max) + 1, 2 ** 53, -0]);
        return r.int(min, max);
      }
      case 'string':
        return this.string(s, name);
      case 'array': {
        const items = (s.items ?? {}) as Schema;
        const count = r.chance(0.1) ? r.int(0, 40) : r.int(0, 3);
        return Array.from({ length: count }, () => this.value(items, name, depth + 1));
      }
      case 'object':
      case undefined: {
        const out: Record<string, unknown> = {};
        const properties = (s.properties ?? {}) as Record<string, Schema>;
        const required = new Set((s.required ?? []) as string[]);
        for (const [key, child] of Object.entries(properties)) {
          if (required.has(key) || r.chance(0.5)) out[key] = this.value(child, key, depth + 1);
        }
        if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          for (let i = r.int(0, 3); i > 0; i--) {
            const key = r.chance(0.1) ? `k${r.pick(CONTROL_CHARACTERS)}${r.int(0, 99)}` : `k${r.int(0, 99)}`;
            out[key] = this.value(s.additionalProperties as Schema, '', depth + 1);
          }
        }
        return out;
      }
      default:
        return this.oddValue();
    }
  }

  private string(s: Schema, name: string): string {
    const r = this.random;
    const day = () => {
      const d = new Date(Date.now() + r.int(-30, 400) * 86_400_000);
      return d.toISOString().slice(0, 10);
    };
    if (s.format === 'date-time' || /time$/i.test(name)) {
      const hour = String(r.int(0, 23)).padStart(2, '0');
      return `${day()}T${hour}:00:00${r.pick(['Z', '.000Z', '+01:00', '-05:30'])}`;
    }
    if (s.format === 'email' || /email/i.test(name)) return r.pick(['guest@example.com', 'Mixed.Case+tag@Example.org', 'no-at-sign', 'a@b']);
    if (/date/i.test(name) || /YYYY-MM-DD/.test(String(s.description ?? ''))) return r.chance(0.9) ? day() : '2026-13-45';
    if (/timezone/i.test(name)) return r.pick(['Europe/Lisbon', 'UTC', 'America/New_York', 'Mars/Olympus_Mons']);
    if (/currency/i.test(name)) return r.pick(['EUR', 'USD', 'JPY', 'XXX', 'eur']);
    if (/^(id|.*Id|after)$/.test(name)) return this.id(name.replace(/Id$/, ''));
    const min = typeof s.minLength === 'number' ? s.minLength : 0;
    const max = typeof s.maxLength === 'number' ? s.maxLength : 60;
    if (r.chance(0.05)) return 'y'.repeat(max + 1);
    const length = r.int(min, Math.min(max, min + 30));
    const text = r.pick(['Sunset kayak ', 'Ana Sá ', 'é😀 ', 'tour ']).repeat(length).slice(0, length);
    return r.chance(0.08) ? this.withControl(text) : text;
  }

  /** `text` with one control character (`char`, else any, a NUL as often as another) put in at a random place. */
  withControl(text: string, char = this.random.pick(CONTROL_CHARACTERS)): string {
    // By code point, so that no surrogate pair is split.
    const points = [...text];
    points.splice(this.random.int(0, points.length), 0, char);
    return points.join('');
  }

  /** An id for a path or field: mostly one that exists (of the right kind when known), else junk. */
  id(kind: string): string {
    const r = this.random;
    const known = this.ids.byKind.get(kind) ?? [];
    const roll = r.next();
    if (roll < 0.7 && known.length) return r.pick(known);
    if (roll < 0.8 && this.ids.all.length) return r.pick(this.ids.all);
    return r.pick([
      'xyz',
      `${kind.slice(0, 3) || 'exp'}_AAAAAAAAAAAAAAAAAAAA`,
      'exp_',
      'BK-00000000',
      'bk-zzzzzzzz',
      '0',
      '-1',
      '%2E%2E%2Fadmin',
      '%00',
      '\u0000',
      `${kind.slice(0, 3) || 'exp'}_\u0000`,
      r.pick(CONTROL_CHARACTERS),
      '%ZZ',
      'a'.repeat(5000),
      '😀',
      'null',
      'undefined',
      '..',
      ' ',
    ]);
  }

  /** Breaks a body made by `value`: one field missing, mistyped or unknown, or the whole thing replaced. */
  mutate(body: unknown): unknown {
    const r = this.random;
    if (!body || typeof body !== 'object' || Array.isArray(body)) return this.oddValue();
    const copy: Record<string, unknown> = { ...(body as Record<string, unknown>) };
    const keys = Object.keys(copy);
    switch (r.int(0, 5)) {
      case 0:
        if (keys.length) delete copy[r.pick(keys)];
        return copy;
      case 1:
        if (keys.length) copy[r.pick(keys)] = this.oddValue();
        return copy;
      case 2:
        copy[r.pick(['unknownField', 'constructor', 'prototype', 'id', 'orgId', 'createdAt'])] = this.oddValue();
        return copy;
      case 3:
        // Deep nesting, written out by `serialize`: parsers and validators must not fall over on it.
        copy[keys.length ? r.pick(keys) : 'deep'] = `${DEEP}${r.pick([50, 1000, 5000])}`;
        return copy;
      case 4:
        return r.pick([[], [copy], 'a string', 42, null, true]);
      default:
        for (const key of keys) if (r.chance(0.3)) copy[key] = this.oddValue();
        return copy;
    }
  }
}
