import type { z } from 'zod';
import { Refusal } from '../domain/refusal.js';
import type { ErrorDetail } from '../../shared/index.js';

function pathOf(segments: readonly PropertyKey[], prefix: string): string {
  const parts = [prefix, ...segments.map(String)].filter((s) => s.length > 0);
  return parts.reduce((acc, part) => (/^\d+$/.test(part) && acc ? `${acc}[${part}]` : acc ? `${acc}.${part}` : part), '');
}

/** zod issues as the contract's `details`: one entry per bad field, unknown fields named one by one. */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix = ''): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) details.push({ path: pathOf([...issue.path, key], prefix), message: 'Unknown field' });
    } else if (issue.code === 'invalid_type' && issue.input === undefined) {
      details.push({ path: pathOf(issue.path, prefix), message: 'Required' });
    } else {
      details.push({ path: pathOf(issue.path, prefix), message: issue.message });
    }
  }
  return details;
}

/** Parses `input` with `schema` or throws `400 VALIDATION_ERROR` naming each bad field. */
export function parseWith<S extends z.ZodType>(schema: S, input: unknown, where: 'body' | 'query' = 'body'): z.output<S> {
  const result = schema.safeParse(input, { reportInput: true });
  if (result.success) return result.data;
  const details = issuesToDetails(result.error.issues);
  const first = details[0];
  const message = first
    ? `Invalid ${where}: ${first.path ? `${first.path}: ` : ''}${first.message}`
    : `Invalid ${where}`;
  throw new Refusal('VALIDATION_ERROR', message, details);
}
