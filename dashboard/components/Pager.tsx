import type { JSX } from 'preact';
import type { Pagination } from '../../shared/index.js';

/**
 * "Previous" and "Next" for an offset list, with where the page sits ("21–40 of 57"). Links, so a
 * page has an address; `href(offset)` builds it with the list's other filters kept.
 */
export function Pager({ pagination, href, label }: { pagination: Pagination; href: (offset: number) => string; label: string }): JSX.Element | null {
  const { total, limit, offset, hasMore } = pagination;
  if (!total) return null;
  const first = offset + 1;
  const last = Math.min(offset + limit, total);
  return (
    <nav class="pager" aria-label={label}>
      <p>
        {first}–{last} of {total}
      </p>
      {offset > 0 ? <a href={href(Math.max(0, offset - limit))}>Previous page</a> : null}
      {hasMore ? <a href={href(offset + limit)}>Next page</a> : null}
    </nav>
  );
}
