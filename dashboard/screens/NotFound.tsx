import type { JSX } from 'preact';

/** An address under /dashboard that names no screen, or a screen this person's role does not open. */
export function NotFound({ forbidden = false }: { forbidden?: boolean }): JSX.Element {
  return (
    <main id="main">
      <h1 id="heading" tabIndex={-1}>
        {forbidden ? 'Not available to your role' : 'Page not found'}
      </h1>
      <p>
        {forbidden
          ? 'This screen is for owners of the organization. Ask an owner if you need something from it.'
          : 'There is no such page in the dashboard.'}
      </p>
      <p>
        <a href="/dashboard">Back to Today</a>
      </p>
    </main>
  );
}
