import type { ContentfulStatusCode } from 'hono/utils/http-status';

/** What a route handler answers: the wrapper turns it into the contract's envelope. */
export interface Reply {
  status: ContentfulStatusCode;
  body: unknown;
  /** The body already serialized (a cached answer); sent as is when present. */
  json?: string;
  /** A success that is not JSON (a CSV download), sent as is with its own type and headers. */
  raw?: { body: string; contentType: string; headers?: Record<string, string> };
}

export const ok = (data: unknown, status: ContentfulStatusCode = 200): Reply => ({
  status,
  body: { success: true, data },
});
export const created = (data: unknown): Reply => ok(data, 201);

export function list(data: unknown[], total: number, page: { limit: number; offset: number }): Reply {
  return {
    status: 200,
    body: {
      success: true,
      data,
      pagination: { total, limit: page.limit, offset: page.offset, hasMore: page.offset + data.length < total },
    },
  };
}

export const DEFAULT_PAGE_SIZE = 20;

export function pageOf(query: { limit?: number; offset?: number }): { limit: number; offset: number } {
  return { limit: query.limit ?? DEFAULT_PAGE_SIZE, offset: query.offset ?? 0 };
}
