/** Settings › Calendars: bookings feeds to subscribe to (address shown once), and calendars imported to block slots. */
import type { JSX } from 'preact';
import { Field, Select, formOf } from '../components/Field.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, CreateForm, Fact, When, zoneOf } from './settings-parts.js';

/** "All experiences", then each by name: what a feed shows or an import blocks. */
function scopeOptions(m: Model): [string, string][] {
  return [['', 'All experiences'], ...(m.settings.experiences.value ?? []).map((x): [string, string] => [x.id, x.name])];
}

function experienceName(m: Model, id: string | null): string {
  if (!id) return 'All experiences';
  return m.settings.experiences.value?.find((x) => x.id === id)?.name ?? id;
}

/** Submits a create form of this section and empties it once the record exists. */
const creating = (run: (v: ReturnType<typeof formOf>) => Promise<boolean>) => (e: Event) => {
  const form = e.currentTarget as HTMLFormElement;
  void run(formOf(e)).then((ok) => ok && form.reset());
};

export function CalendarsSection({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const feedForm = s.form('feed');
  const importForm = s.form('import');
  return (
    <>
      <p class="quiet">Times in {zoneOf(m)}.</p>
      <section aria-labelledby="feeds-title">
        <h3 id="feeds-title">Bookings feeds</h3>
        <p class="hint">A private calendar address with your bookings, for Google, Apple or Outlook calendars.</p>
        <Cards items={s.feeds.value} empty="No feeds yet. Create one below to see bookings in your calendar app.">
          {s.feeds.value?.map((f) => (
            <Card
              key={f.id}
              level={4}
              id={`feed-${f.id}`}
              title={f.name}
              facts={
                <>
                  <Fact t="Bookings of">{experienceName(m, f.experienceId)}</Fact>
                  <Fact t="Created">
                    <When m={m} at={f.createdAt} />
                  </Fact>
                </>
              }
            >
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
          <Field idPrefix="feed-" name="name" label="Name" type="text" hint="Such as “Guides’ calendar”." error={feedForm.fields['name']} />
          <Select idPrefix="feed-" name="experienceId" label="Bookings of" options={scopeOptions(m)} error={feedForm.fields['experienceId']} />
        </CreateForm>
      </section>

      <section aria-labelledby="imports-title">
        <h3 id="imports-title">Imported calendars</h3>
        <p class="hint">Busy times in another calendar (a guide’s, a venue’s) close the time slots they overlap.</p>
        <Cards items={s.imports.value} empty="No imported calendars. Add the iCal address of one below to block the times it is busy.">
          {s.imports.value?.map((i) => (
            <Card
              key={i.id}
              level={4}
              id={`import-${i.id}`}
              title={i.name}
              facts={
                <>
                  <Fact t="Address">
                    <code>{i.url}</code>
                  </Fact>
                  <Fact t="Blocks">{experienceName(m, i.experienceId)}</Fact>
                  <Fact t="Last synced">
                    <When m={m} at={i.lastSyncedAt} />
                  </Fact>
                  <Fact t="Events">{i.eventCount}</Fact>
                  <Fact t="Last error">{i.lastError ? <span class="error-text">{i.lastError}</span> : 'None'}</Fact>
                </>
              }
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
          <Field idPrefix="import-" name="name" label="Name" type="text" error={importForm.fields['name']} />
          <Field idPrefix="import-" name="url" label="URL" type="url" hint="Its iCal (.ics) address: https, http or webcal." error={importForm.fields['url']} />
          <Select idPrefix="import-" name="experienceId" label="Blocks" options={scopeOptions(m)} error={importForm.fields['experienceId']} />
        </CreateForm>
      </section>
    </>
  );
}
