import type { JSX } from 'preact';
import { Confirm } from '../components/Confirm.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { SECTIONS, type Section } from '../state/settings.js';
import { CalendarsSection } from './settings-calendars.js';
import { KeysSection } from './settings-keys.js';
import { ActivitySection, OrganizationSection } from './settings-organization.js';
import { Revealed } from './settings-parts.js';
import { TeamSection } from './settings-team.js';
import { GiftVouchersSection, PromoCodesSection } from './settings-promotions.js';
import { WebhooksSection } from './settings-webhooks.js';
import '../styles/settings.css';
import { RetryAlert } from '../components/RetryAlert.js';

const VIEWS: Record<Section, (p: { m: Model }) => JSX.Element | null> = {
  organization: OrganizationSection,
  'api-keys': KeysSection,
  webhooks: WebhooksSection,
  calendars: CalendarsSection,
  team: TeamSection,
  'promo-codes': PromoCodesSection,
  'gift-vouchers': GiftVouchersSection,
  activity: ActivitySection,
};

const labelOf = (section: Section | null): string | undefined => SECTIONS.find(([s]) => s === section)?.[1];

/** Settings, for owners: one section at a time under its own address, with the sections' links above. */
export function Settings({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const { section, loading, error } = s.view.value;
  const View = section ? VIEWS[section] : null;
  const asking = s.asking.value;
  return (
    <main id="main" class="settings">
      <h1 id="heading" tabIndex={-1}>
        Settings
      </h1>
      <nav class="sections" aria-label="Settings sections">
        <ul>
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a href={id === 'organization' ? pathTo('settings') : pathTo('settings', id)} aria-current={id === section ? 'page' : undefined}>
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {View ? (
        <section aria-labelledby="section-heading">
          <h2 id="section-heading" tabIndex={-1}>
            {labelOf(section)}
          </h2>
          <p class="status-line" role="status">
            {loading ? 'Loading…' : (s.notice.value ?? '')}
          </p>
          {s.alert.value ? (
            <p class="alert" role="alert" id="settings-alert" tabIndex={-1}>
              {s.alert.value}
            </p>
          ) : null}
          <RetryAlert error={error} onRetry={() => s.retry()} />
          <Revealed m={m} />
          <View m={m} />
        </section>
      ) : (
        <p>There is no such section of Settings. Choose one of the sections above.</p>
      )}
      {asking ? (
        <Confirm
          title={asking.title}
          confirmLabel={asking.confirmLabel}
          danger
          busy={asking.busy}
          error={asking.error}
          onConfirm={() => void s.confirm()}
          onClose={() => s.closeConfirm()}
        >
          <p>{asking.text}</p>
        </Confirm>
      ) : null}
    </main>
  );
}
