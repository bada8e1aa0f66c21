/** Calendar dates as `YYYY-MM-DD`, reckoned in UTC so that no zone's midnight moves them. */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}
