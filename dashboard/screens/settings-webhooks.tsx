/** Settings › Webhooks: endpoints (add, enable or disable, rotate the secret, delete) and each one's delivery log. */
import type { JSX } from 'preact';
import { EVENT_KINDS } from '../../shared/index.js';
import { formOf } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, Choices, CreateForm, fieldOf, LogTable, when, zoneOf } from './settings-parts.js';

const base = () => pathTo('settings', 'webhooks');
const logOf = (id: string, offset = 0) => `${base()}?endpoint=${encodeURIComponent(id)}${offset ? `&offset=${offset}` : ''}`;

export function WebhooksSection({ m }: { m: Model }): JSX.Element {
  // The address decides, so Back from a log shows the list at once, before anything loads.
  const id = m.router.location.value.search.get('endpoint');
  if (!id) return <Endpoints m={m} />;
  return m.settings.deliveries.value?.endpointId === id ? <DeliveryLog m={m} /> : <></>;
}

function Endpoints({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const f = s.form('endpoint');
  const field = fieldOf(f, 'endpoint-');
  const submit = (e: Event) => {
    const v = formOf(e);
    const form = e.currentTarget as HTMLFormElement;
    void s.createEndpoint(v.value('url'), v.all('events'), v.value('description')).then((ok) => ok && form.reset());
  };
  return (
    <>
      <p class="quiet">Outing sends booking and payment events to your endpoints, signed. Times in {zoneOf(m)}.</p>
      <Cards items={s.endpoints.value} empty="No endpoints yet. Add a receiver’s address below to hear of every booking as it happens.">
        {s.endpoints.value?.map((e) => {
          const b = { type: 'button', 'aria-describedby': `endpoint-${e.id}` } as const;
          return (
            <Card
              key={e.id}
              id={`endpoint-${e.id}`}
              title={e.url}
              off={!e.enabled}
              facts={[
                ['Status', e.enabled ? 'Enabled' : `Disabled${e.disabledReason ? `: ${e.disabledReason}` : ''}`],
                ['Events', e.events.join(', ')],
                e.description ? ['Description', e.description] : null,
                ['Created', when(m, e.createdAt)],
              ]}
            >
              <a class="button" href={logOf(e.id)} aria-describedby={`endpoint-${e.id}`}>
                Delivery log
              </a>
              <button {...b} aria-disabled={busy(m, e.id)} onClick={() => void s.setEndpointEnabled(e, !e.enabled)}>
                {e.enabled ? 'Disable' : 'Enable'}
              </button>
              <button {...b} id={`rotate-${e.id}`} onClick={() => s.rotateSecret(e)}>
                Rotate secret
              </button>
              <button {...b} id={`delete-${e.id}`} onClick={() => s.deleteEndpoint(e)}>
                Delete
              </button>
            </Card>
          );
        })}
      </Cards>
      <CreateForm id="new-endpoint" title="Add an endpoint" state={f} button="Add endpoint" busyButton="Adding…" onSubmit={submit}>
        {field('url', 'URL', { type: 'url', hint: 'An https address that answers 2xx.' })}
        <Choices prefix="endpoint-" name="events" legend="Events" hint="None ticked is all of them." options={EVENT_KINDS} error={f.fields['events']} />
        {field('description', 'Description', { required: false, hint: 'Optional.' })}
      </CreateForm>
    </>
  );
}

const STATUS = { PENDING: 'Pending', SUCCEEDED: 'Succeeded', FAILED: 'Failed' } as const;

function DeliveryLog({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const { endpointId, page } = s.deliveries.value!;
  const url = s.endpoints.value?.find((e) => e.id === endpointId)?.url ?? endpointId;
  return (
    <>
      <p>
        <a href={base()}>All endpoints</a>
      </p>
      <h3>Delivery log of {url}</h3>
      <p class="quiet">Newest first; times in {zoneOf(m)}.</p>
      <button type="button" aria-disabled={busy(m, 'deliveries')} onClick={() => void s.refreshDeliveries()}>
        Refresh
      </button>
      {page.data.length ? (
        <LogTable
          label={`Deliveries to ${url}`}
          columns={['Event', 'Status', 'Attempts', 'Last error', 'Created', 'Delivered', '']}
          rows={page.data.map((d) => [
            `delivery-${d.id}`,
            [
              d.event,
              <span class={`status ${d.status.toLowerCase()}`}>
                {STATUS[d.status]}
                {d.lastStatusCode ? ` (HTTP ${d.lastStatusCode})` : ''}
              </span>,
              d.attempts,
              d.lastError ?? 'None',
              when(m, d.createdAt),
              d.deliveredAt ? when(m, d.deliveredAt) : d.nextAttemptAt ? <>Next try {when(m, d.nextAttemptAt)}</> : 'No',
              <button type="button" aria-describedby={`delivery-${d.id}`} aria-disabled={busy(m, d.id)} onClick={() => void s.retryDelivery(endpointId, d)}>
                Retry
              </button>,
            ],
          ])}
        />
      ) : (
        <p class="empty">No deliveries yet. Events this endpoint takes are listed here once sent.</p>
      )}
      <Pager pagination={page.pagination} label="Delivery log pages" href={(offset) => logOf(endpointId, offset)} />
    </>
  );
}
