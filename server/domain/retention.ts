// How long records are kept for their purpose.

/** How long a request's Idempotency-Key keeps its first answer for replay. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
