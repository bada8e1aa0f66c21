// What the reports hold before they are formatted: a day's figures in cents, an experience's places.

export interface DailyFigures {
  date: string;
  bookings: number;
  participants: number;
  revenueCents: number;
  cancellations: number;
}

export interface DailyReport {
  timezone: string;
  currency: string;
  /** The range counted, local dates. */
  startDate: string;
  endDate: string;
  days: DailyFigures[];
}

/** One experience's figures over a report's range, counted as the daily report counts them. */
export interface ExperienceFigures {
  experienceId: string;
  experienceName: string;
  bookings: number;
  participants: number;
  revenueCents: number;
  cancellations: number;
}

export interface ExperienceReport {
  timezone: string;
  currency: string;
  startDate: string;
  endDate: string;
  experiences: ExperienceFigures[];
}

const byTitle = new Intl.Collator('en', { sensitivity: 'base', numeric: true });

/**
 * Highest revenue first, then by title as a reader sorts (case and accents aside), then by id:
 * in JavaScript, so both engines give one order whatever their collations.
 */
export function byRevenueThenTitle(a: ExperienceFigures, b: ExperienceFigures): number {
  const byId = a.experienceId < b.experienceId ? -1 : a.experienceId > b.experienceId ? 1 : 0;
  return b.revenueCents - a.revenueCents || byTitle.compare(a.experienceName, b.experienceName) || byId;
}

export interface ExperienceOccupancy {
  experienceId: string;
  experienceName: string;
  slots: number;
  capacity: number;
  booked: number;
}
