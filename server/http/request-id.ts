import { randomUUID } from 'node:crypto';

const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/** The caller's X-Request-Id when it is safe to echo, else a new one. */
export function requestIdFor(incoming: string | undefined): string {
  return incoming !== undefined && INCOMING_ID.test(incoming) ? incoming : `req_${randomUUID().replace(/-/g, '')}`;
}
