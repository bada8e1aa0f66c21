import { z } from 'zod';
import { Pagination } from './common.js';

export function dataEnvelope<T extends z.ZodType>(data: T) {
  return z.object({ success: z.literal(true), data });
}

export function listEnvelope<T extends z.ZodType>(item: T) {
  return z.object({ success: z.literal(true), data: z.array(item), pagination: Pagination });
}
