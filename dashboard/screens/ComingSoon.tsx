import type { JSX } from 'preact';

const PLANNED: Record<string, { title: string; meanwhile: string }> = {
  bookings: { title: 'Bookings', meanwhile: 'GET /v1/bookings lists and searches them; PATCH and POST …/cancel change them.' },
  reports: { title: 'Reports', meanwhile: 'GET /v1/reports/daily and /v1/reports/occupancy give the figures.' },
  settings: { title: 'Settings', meanwhile: 'the organization, keys and users are under /v1/organization, /v1/api-keys and /v1/users.' },
};

export const comingSoonTitle = (screen: string) => PLANNED[screen]?.title ?? 'Page not found';

/** The screens the navigation promises but this version does not have yet. */
export function ComingSoon({ screen }: { screen: string }): JSX.Element {
  const planned = PLANNED[screen];
  return (
    <main id="main" class="soon">
      <h1 id="heading" tabIndex={-1}>
        {comingSoonTitle(screen)}
      </h1>
      {planned ? (
        <>
          <p>Coming soon: this screen is not in the dashboard yet.</p>
          <p>
            Meanwhile the API does it: {planned.meanwhile} See the <a href="/docs">API reference</a>.
          </p>
        </>
      ) : (
        <p>There is no such page in the dashboard.</p>
      )}
      <p>
        <a href="/dashboard">Back to Today</a>
      </p>
    </main>
  );
}
