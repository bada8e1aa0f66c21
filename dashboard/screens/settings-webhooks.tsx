/** Settings › Webhooks: endpoints (add, enable or disable, rotate the secret, delete) and each one's delivery log. */
import type { JSX } from 'preact';
import { EVENT_KINDS, type Delivery } from '../../shared/index.js';
import { Field, formOf } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { busy, Card, Cards, Choices, CreateForm, Fact, When, zoneOf } from './settings-parts.js';

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
  const submit = (e: Event) => {
    const v = formOf(e);
    const form = e.currentTarget as HTMLFormElement;
    void s.createEndpoint(v.value('url'), v.all('events'), v.value('description')).then((ok) => ok && form.reset());
  };
  return (
    <>
      <p class="quiet">Outing sends each booking and payment event to your endpoints, signed. Times in {zoneOf(m)}.</p>
      <Cards items={s.endpoints.value} empty="No endpoints yet. Add the address of a receiver below to hear of every booking as it happens.">
        {s.endpoints.value?.map((e) => (
          <Card
            key={e.id}
            id={`endpoint-${e.id}`}
            title={e.url}
            facts={
              <>
                <Fact t="Status">
                  {e.enabled ? <span class="status confirmed">Enabled</span> : <span class="status pending">Disabled{e.disabledReason ? `: ${e.disabledReason}` : ''}</span>}
                </Fact>
                <Fact t="Events">{e.events.join(', ')}</Fact>
                {e.description ? <Fact t="Description">{e.description}</Fact> : null}
                <Fact t="Created">
                  <When m={m} at={e.createdAt} />
                </Fact>
              </>
            }
          >
            <a class="button" href={logOf(e.id)} aria-describedby={`endpoint-${e.id}`}>
              Delivery log
            </a>
            <button type="button" aria-describedby={`endpoint-${e.id}`} aria-disabled={busy(m, e.id)} onClick={() => void s.setEndpointEnabled(e, !e.enabled)}>
              {e.enabled ? 'Disable' : 'Enable'}
            </button>
            <button type="button" id={`rotate-${e.id}`} aria-describedby={`endpoint-${e.id}`} onClick={() => s.rotateSecret(e)}>
              Rotate secret
            </button>
            <button type="button" id={`delete-${e.id}`} aria-describedby={`endpoint-${e.id}`} onClick={() => s.deleteEndpoint(e)}>
              Delete
            </button>
          </Card>
        ))}
      </Cards>
      <CreateForm id="new-endpoint" title="Add an endpoint" state={f} button="Add endpoint" busyButton="Adding…" onSubmit={submit}>
        <Field idPrefix="endpoint-" name="url" label="URL" type="url" hint="An https address that answers 2xx, such as https://example.com/outing." error={f.fields['url']} />
        <Choices prefix="endpoint-" name="events" legend="Events" hint="Tick none for all of them." options={EVENT_KINDS} error={f.fields['events']} />
        <Field idPrefix="endpoint-" name="description" label="Description" type="text" required={false} hint="Optional." error={f.fields['description']} />
      </CreateForm>
    </>
  );
}

const STATUS: Record<Delivery['status'], [label: string, tone: string]> = {
  PENDING: ['Pending', 'pending'],
  SUCCEEDED: ['Succeeded', 'confirmed'],
  FAILED: ['Failed', 'failed'],
};

function DeliveryLog({ m }: { m: Model }): JSX.Element | null {
  const s = m.settings;
  const shown = s.deliveries.value!;
  const { endpointId, page } = shown;
  const endpoint = s.endpoints.value?.find((e) => e.id === endpointId);
  return (
    <>
      <p>
        <a href={base()}>All endpoints</a>
      </p>
      <h3 id="log-title">Delivery log of {endpoint?.url ?? endpointId}</h3>
      <p class="quiet">Newest first; times in {zoneOf(m)}.</p>
      <div class="buttons">
        <button type="button" aria-disabled={busy(m, 'deliveries')} onClick={() => void s.refreshDeliveries()}>
          Refresh
        </button>
      </div>
      {page.data.length ? (
        <table class="stack" aria-labelledby="log-title">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col" class="num">
                Attempts
              </th>
              <th scope="col">Last error</th>
              <th scope="col">Created</th>
              <th scope="col">Delivered</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((d) => (
              <tr key={d.id}>
                <td data-label="Event" id={`delivery-${d.id}`}>
                  {d.event}
                </td>
                <td data-label="Status">
                  <span class={`status ${STATUS[d.status][1]}`}>{STATUS[d.status][0]}</span>
                  {d.lastStatusCode ? ` (HTTP ${d.lastStatusCode})` : ''}
                </td>
                <td data-label="Attempts" class="num">
                  {d.attempts}
                </td>
                <td data-label="Last error">{d.lastError ?? 'None'}</td>
                <td data-label="Created">
                  <When m={m} at={d.createdAt} />
                </td>
                <td data-label="Delivered">
                  {d.deliveredAt ? <When m={m} at={d.deliveredAt} /> : d.nextAttemptAt ? <>Next try <When m={m} at={d.nextAttemptAt} /></> : 'No'}
                </td>
                <td>
                  <button type="button" aria-describedby={`delivery-${d.id}`} aria-disabled={busy(m, d.id)} onClick={() => void s.retryDelivery(endpointId, d)}>
                    Retry
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : (
        <p class="empty">No deliveries yet. Each event of the kinds this endpoint takes is listed here once it is sent.</p>
      )}
      <Pager pagination={page.pagination} label="Delivery log pages" href={(offset) => logOf(endpointId, offset)} />
    </>
  );
}
