/** Settings › Organization (the org's own fields) and Settings › Activity (who changed what). */
import type { JSX } from 'preact';
import type { Activity } from '../../shared/index.js';
import { TWO_DECIMAL_CURRENCIES } from '../../shared/index.js';
import { LOCALES, NOTICE_EVENTS, type Locale, type NoticeEvent } from '../../shared/index.js';
import { Checkbox, Field, FormAlert, Select, TextArea, formOf } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { fieldOf, LogTable, when, zoneOf } from './settings-parts.js';

let zones: string[] | undefined;
/** Every IANA zone this browser knows, and the one saved even if it does not. */
function zoneOptions(current: string): [string, string][] {
  zones ??= Intl.supportedValuesOf('timeZone');
  return (zones.includes(current) ? zones : [current, ...zones]).map((z) => [z, z.replace(/_/g, ' ')]);
}

/** Each language named in itself, as a guest choosing it would look for it. */
const LANGUAGE_NAMES: Record<Locale, string> = {
  en: 'English',
  pt: 'Português',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
  it: 'Italiano',
  nl: 'Nederlands',
};

export function OrganizationSection({ m }: { m: Model }): JSX.Element | null {
  const s = m.settings;
  const o = s.org.value;
  if (!o) return null;
  const d = s.orgDraft.value ?? {
    ...o,
    phone: o.phone ?? '',
    cancellationCutoffHours: String(o.cancellationCutoffHours),
    waitlistOfferMinutes: String(o.waitlistOfferMinutes),
    notificationEmails: o.notificationEmails.join('\n'),
    brandColor: o.brandColor ?? '',
    logoUrl: o.logoUrl ?? '',
  };
  const f = s.form('organization');
  const p = { idPrefix: 'org-' };
  const field = fieldOf(f, 'org-');
  const submit = (e: Event) => {
    const v = formOf(e);
    void s.saveOrganization({
      name: v.value('name'),
      email: v.value('email'),
      phone: v.value('phone'),
      timezone: v.value('timezone'),
      currency: v.value('currency'),
      onlinePayments: v.checked('onlinePayments'),
      cancellationCutoffHours: v.value('cancellationCutoffHours'),
      guestSelfService: v.checked('guestSelfService'),
      waitlistOfferMinutes: v.value('waitlistOfferMinutes'),
      notificationEmails: v.value('notificationEmails'),
      notifyOn: NOTICE_EVENTS.filter((kind) => v.all('notifyOn').includes(kind)),
      brandColor: v.value('brandColor'),
      logoUrl: v.value('logoUrl'),
      defaultLocale: v.value('defaultLocale'),
    });
  };
  return (
    <form class="card" noValidate aria-busy={f.busy ? 'true' : undefined} onSubmit={submit}>
      <FormAlert error={f.error} />
      {field('name', 'Name', { value: d.name, autoComplete: 'organization' })}
      {field('email', 'Email', { value: d.email, type: 'email' })}
      {field('phone', 'Phone', { value: d.phone, required: false, hint: 'Optional.' })}
      <Select
        {...p}
        name="timezone"
        label="Time zone"
        options={zoneOptions(d.timezone)}
        value={d.timezone}
        error={f.fields['timezone']}
      />
      <Select
        {...p}
        name="currency"
        label="Currency"
        hint="Fixed once there are bookings."
        options={TWO_DECIMAL_CURRENCIES.map((c) => [c, c] as const)}
        value={d.currency}
        error={f.fields['currency']}
      />
      <Select
        {...p}
        name="defaultLocale"
        label="Default language"
        hint="Guests’ e-mails and pages speak it when a booking or waitlist entry names no language of its own, and gift voucher e-mails always do. Your own notices stay in English."
        options={LOCALES.map((l) => [l, LANGUAGE_NAMES[l]] as const)}
        value={d.defaultLocale}
        error={f.fields['defaultLocale']}
      />
      <Checkbox
        {...p}
        name="onlinePayments"
        label="Take payments online"
        hint="Guests pay by card as they book (needs the server’s Stripe keys)."
        checked={d.onlinePayments}
        error={f.fields['onlinePayments']}
      />
      <Checkbox
        {...p}
        name="guestSelfService"
        label="Guests may cancel or change their bookings themselves"
        hint="From the link in their e-mails, until the cutoff below."
        checked={d.guestSelfService}
        error={f.fields['guestSelfService']}
      />
      {field('cancellationCutoffHours', 'Cancellation cutoff', {
        value: d.cancellationCutoffHours,
        type: 'number',
        hint: 'Hours before the start after which guests can no longer cancel or change on their own (0 to 720).',
      })}
      {field('waitlistOfferMinutes', 'Waitlist offer (minutes)', {
        value: d.waitlistOfferMinutes,
        type: 'number',
        hint: 'How long places that free up are held for the next guest on a waitlist before they go to the one after (1 to 10080, a week; 720 is 12 hours). An offer never lasts past the experience’s booking notice.',
      })}
      <h3 class="form-part">Booking notices by e-mail</h3>
      <TextArea
        {...p}
        name="notificationEmails"
        label="Send notices to"
        hint="Up to five addresses, one per line. Each gets an e-mail for the bookings chosen below; leave it empty to get none."
        rows={3}
        value={d.notificationEmails}
        error={f.fields['notificationEmails']}
      />
      <NoticeChoices chosen={d.notifyOn} error={f.fields['notifyOn']} />
      <h3 class="form-part">Brand</h3>
      {field('brandColor', 'Brand colour', {
        value: d.brandColor,
        required: false,
        hint: 'As #rrggbb, such as #0b7285: the accent of your e-mails and of the guests’ booking page. Leave it empty for the default.',
      })}
      <Field
        {...p}
        name="logoUrl"
        label="Logo address"
        type="url"
        required={false}
        value={d.logoUrl}
        hint="An https address of your logo, shown in your e-mails and on the guests’ booking page. Leave it empty for none."
        error={f.fields['logoUrl']}
      />
      <button class="primary" type="submit" aria-disabled={f.busy ? 'true' : undefined}>
        {f.busy ? 'Saving…' : 'Save changes'}
      </button>
    </form>
  );
}

const NOTICE_LABELS: Record<NoticeEvent, string> = {
  BOOKING_CREATED: 'New bookings',
  BOOKING_CANCELED: 'Cancellations',
  BOOKING_UPDATED: 'Changes to bookings (not check-ins)',
};

/** Which booking events send a notice: one checkbox each, under one legend. */
function NoticeChoices({ chosen, error }: { chosen: readonly NoticeEvent[]; error: string | undefined }): JSX.Element {
  return (
    <fieldset class={`choices${error ? ' invalid' : ''}`} aria-describedby={error ? 'org-notifyOn-error' : undefined}>
      <legend>Send a notice for</legend>
      {NOTICE_EVENTS.map((kind) => (
        <div class="field check" key={kind}>
          <input type="checkbox" id={`org-notifyOn-${kind}`} name="notifyOn" value={kind} defaultChecked={chosen.includes(kind)} />
          <label for={`org-notifyOn-${kind}`}>{NOTICE_LABELS[kind]}</label>
        </div>
      ))}
      {error ? (
        <p class="field-error" id="org-notifyOn-error">
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

const ACTORS: Record<Activity['actor']['type'], string> = {
  user: 'dashboard',
  key: 'API key',
  guest: 'guest',
  system: 'Outing',
  cli: 'command line',
};

export function ActivitySection({ m }: { m: Model }): JSX.Element | null {
  const page = m.settings.activity.value;
  if (!page) return null;
  if (!page.data.length) return <p class="empty">Nothing has changed yet. Changes from here, the API and guests’ bookings will be listed here.</p>;
  const base = pathTo('settings', 'activity');
  return (
    <>
      <p class="quiet">Newest first; times in {zoneOf(m)}.</p>
      <LogTable
        label="Activity"
        columns={['When', 'Who', 'Action', 'Summary']}
        rows={page.data.map((a) => [
          a.id,
          [when(m, a.createdAt), `${a.actor.name} (${ACTORS[a.actor.type]})`, <code class="action">{a.action}</code>, a.summary],
        ])}
      />
      <Pager pagination={page.pagination} label="Activity pages" href={(offset) => (offset ? `${base}?offset=${offset}` : base)} />
    </>
  );
}
