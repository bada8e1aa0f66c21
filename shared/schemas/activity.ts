import { z } from 'zod';
import { Instant, PageQuery } from './common.js';

export const ACTOR_TYPES = ['user', 'key', 'guest', 'system', 'cli'] as const;

/** One change to the organization's data, and who made it. */
export const Activity = z.object({
  id: z.string(),
  actor: z.object({
    type: z.enum(ACTOR_TYPES),
    id: z.string().nullable().describe('The user (usr_…) or API key (key_…); null for guests, the system and the CLI'),
    name: z.string(),
  }),
  action: z.string().describe('`<resource>.<verb>`: booking.create, booking.cancel, booking.check_in, api_key.revoke, …'),
  targetType: z.string(),
  targetId: z.string(),
  summary: z.string(),
  ip: z.string().nullable(),
  createdAt: Instant,
});
export type Activity = z.infer<typeof Activity>;

export const ActivityListQuery = z.strictObject({
  actorId: z.string().min(1).max(100).optional(),
  targetId: z.string().min(1).max(100).optional(),
  ...PageQuery,
});
