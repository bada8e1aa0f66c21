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
  days: DailyFigures[];
}

export interface ExperienceOccupancy {
  experienceId: string;
  experienceName: string;
  slots: number;
  capacity: number;
  booked: number;
}
