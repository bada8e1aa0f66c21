/** Settings › Calendars: bookings feeds to subscribe to (address shown once), and calendars imported to block slots. */
import type { JSX } from 'preact';
import { Select, formOf } from '../components/Field.js';
import type { FormState } from '../state/context.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, CreateForm, fieldOf, when, zoneOf } from './settings-parts.js';

const ALL = 'All experiences';

/** Submits a create form and empties it once the record exists. */
const creating = (run: (v: ReturnType<typeof formOf>) => Promise<boolean>) => (e: Event) => {
  const form = e.currentTarget as HTMLFormElement;
  void run(formOf(e)).then((ok) => ok && form.reset());
};

export function CalendarsSection({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const list = s.experiences.value ?? [];
  const nameOf = (id: string | null) => (id ? (list.find((x) => x.id === id)?.name ?? id) : ALL);
  const scope = (f: FormState, prefix: string, label: string) => (
    <Select idPrefix={prefix} name="experienceId" label={label} options={[['', ALL], ...list.map((x) => [x.id, x.name] as const)]} error={f.fields['experienceId']} />
  );
  const feedForm = s.form('feed');
  const importForm = s.form('import');
  const importField = fieldOf(importForm, 'import-');
  return (
    <>
      <p class="quiet">Times in {zoneOf(m)}.</p>
      <h3>Bookings feeds</h3>
      <p class="hint">A private calendar address with your bookings, for Google, Apple or Outlook calendars.</p>
      <Cards items={s.feeds.value} empty="No feeds yet. Create one below to see bookings in your calendar app.">
        {s.feeds.value?.map((f) => (
          <Card key={f.id} level={4} id={`feed-${f.id}`} title={f.name} facts={[['Bookings of', nameOf(f.experienceId)], ['Created', when(m, f.createdAt)]]}>
            <button type="button" id={`delete-${f.id}`} aria-describedby={`feed-${f.id}`} onClick={() => s.deleteFeed(f)}>
              Delete
            </button>
          </Card>
        ))}
      </Cards>
      <CreateForm
        id="new-feed"
        level={4}
        title="Create a feed"
        state={feedForm}
        button="Create feed"
        busyButton="Creating…"
        onSubmit={creating((v) => s.createFeed(v.value('name'), v.value('experienceId')))}
      >
        {fieldOf(feedForm, 'feed-')('name', 'Name', { hint: 'Such as “Guides’ calendar”.' })}
        {scope(feedForm, 'feed-', 'Bookings of')}
      </CreateForm>

      <h3>Imported calendars</h3>
      <p class="hint">Busy times in another calendar (a guide’s, a venue’s) close the time slots they overlap.</p>
      <Cards items={s.imports.value} empty="No imported calendars. Add one’s iCal address below to block the times it is busy.">
        {s.imports.value?.map((i) => (
          <Card
            key={i.id}
            level={4}
            id={`import-${i.id}`}
            title={i.name}
            facts={[
              ['Address', <code>{i.url}</code>],
              ['Blocks', nameOf(i.experienceId)],
              ['Last synced', when(m, i.lastSyncedAt)],
              ['Events', i.eventCount],
              ['Last error', i.lastError ? <span class="error-text">{i.lastError}</span> : 'None'],
            ]}
          >
            <button type="button" aria-describedby={`import-${i.id}`} aria-disabled={busy(m, i.id)} onClick={() => void s.syncImport(i)}>
              {busy(m, i.id) ? 'Syncing…' : 'Sync now'}
            </button>
            <button type="button" id={`delete-${i.id}`} aria-describedby={`import-${i.id}`} onClick={() => s.deleteImport(i)}>
              Delete
            </button>
          </Card>
        ))}
      </Cards>
      <CreateForm
        id="new-import"
        level={4}
        title="Import a calendar"
        state={importForm}
        button="Add calendar"
        busyButton="Reading the calendar…"
        onSubmit={creating((v) => s.createImport(v.value('name'), v.value('url'), v.value('experienceId')))}
      >
        {importField('name', 'Name')}
        {importField('url', 'URL', { type: 'url', hint: 'Its iCal (.ics) address: https, http or webcal.' })}
        {scope(importForm, 'import-', 'Blocks')}
      </CreateForm>
    </>
  );
}
