import type { Config } from '../config.js';
import type { Logger } from '../logger.js';
import type { HttpContext } from '../http/router.js';
import type { PaymentProvider } from '../payments/provider.js';
import type { CalendarSync } from '../services/calendar-sync.js';

/** What every route module is made from: one shape, so `createApp` mounts them all alike. */
export interface RouteContext extends HttpContext {
  config: Config;
  logger: Logger;
  /** The online payment provider, when the server has one configured. */
  payments: PaymentProvider | undefined;
  calendarSync: CalendarSync;
}
