import { invalid } from '../domain/refusal.js';
import { checkOutboundUrl, OutboundError } from '../net/outbound.js';

/**
 * Refuses, as invalid `url`, an address the outbound guard would never connect to (a literal
 * loopback or private address, `localhost`, …). Names are resolved and checked again at connect time.
 */
export function assertReachableUrl(url: string, allowPrivate: boolean): void {
  try {
    checkOutboundUrl(url, allowPrivate);
  } catch (err) {
    if (err instanceof OutboundError) throw invalid('url', err.message);
    throw err;
  }
}
