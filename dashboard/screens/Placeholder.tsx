import type { JSX } from 'preact';

/** A screen being built: its heading, and where the API does the same meanwhile. */
export function Placeholder({ title }: { title: string }): JSX.Element {
  return (
    <main id="main">
      <h1 id="heading" tabIndex={-1}>
        {title}
      </h1>
      <p>Coming soon. Meanwhile the API does it: see the <a href="/docs">API reference</a>.</p>
    </main>
  );
}
