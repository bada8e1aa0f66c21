import type { Sql } from './sql.js';
import { userStore, type UserStore } from './users.js';
import { experienceStore, type ExperienceStore } from './experiences.js';
import { calendarFeedStore, type CalendarFeedStore } from './calendar-feeds.js';
import { activityStore, type ActivityStore } from './activity.js';
import { customerStore, type CustomerStore } from './customers.js';
import { calendarImportStore, type CalendarImportStore } from './calendar-imports.js';

/**
 * The store's slices written once over the port, one per resource: a service asks for the slice it
 * needs (`store.users`), and two modules can never answer to one name.
 */
export interface WrittenOnce {
  users: UserStore;
  experiences: ExperienceStore;
  calendarFeeds: CalendarFeedStore;
  activity: ActivityStore;
  customers: CustomerStore;
  calendarImports: CalendarImportStore;
}

/** Every slice written once, over one engine's driver. */
export function slicesOver(sql: Sql): WrittenOnce {
  return {
    users: userStore(sql),
    experiences: experienceStore(sql),
    calendarFeeds: calendarFeedStore(sql),
    activity: activityStore(sql),
    customers: customerStore(sql),
    calendarImports: calendarImportStore(sql),
  };
}
