/**
 * Settings › Promo codes (list, "New promo code", edit, "Deactivate") and Settings › Gift vouchers
 * (list by status, "New gift voucher" and its code to copy, "Disable", one voucher's redemptions
 * and e-mails). Times and dates are the organization's zone's.
 */
import type { JSX } from 'preact';
import type { GiftVoucher, PromoCode } from '../../shared/index.js';
import { CopyField } from '../components/CopyButton.js';
import { Checkbox, formOf, Select, TextArea } from '../components/Field.js';
import { Pager } from '../components/Pager.js';
import { money, shortDateIn } from '../format.js';
import { pathTo } from '../router.js';
import type { Model } from '../state/model.js';
import { discountText, localIn, promotionActions, type PromotionActions, type VoucherMessage } from '../state/promotions.js';
import { KIND_WORDS } from '../state/bookings.js';
import { busy, Card, Cards, CreateForm, fieldOf, LogTable, when, zoneOf } from './settings-parts.js';

const actions = new WeakMap<object, PromotionActions>();
/** The writes of this Settings model, made once. */
const actionsOf = (m: Model): PromotionActions => {
  let a = actions.get(m.settings);
  if (!a) actions.set(m.settings, (a = promotionActions(m.settings)));
  return a;
};

const currencyOf = (m: Model): string => m.settings.org.value?.currency ?? 'EUR';
const canWrite = (m: Model): boolean => m.session.value?.user.role === 'owner';

/* ------------------------------------------------------------------ Promo codes */

const promoBase = () => pathTo('settings', 'promo-codes');

export function PromoCodesSection({ m }: { m: Model }): JSX.Element {
  const search = m.router.location.value.search;
  const editId = search.get('edit');
  const list = m.settings.promoCodes.value;
  if (editId) {
    const p = list?.find((x) => x.id === editId);
    if (!list) return <></>;
    return p ? (
      <>
        <p>
          <a href={promoBase()}>All promo codes</a>
        </p>
        <PromoForm m={m} editing={p} />
      </>
    ) : (
      <p>
        There is no such promo code. <a href={promoBase()}>All promo codes</a>
      </p>
    );
  }
  return <PromoList m={m} list={list} active={search.get('active') ?? ''} />;
}

function validity(m: Model, p: PromoCode): string {
  const z = zoneOf(m);
  if (!p.validFrom && !p.validUntil) return 'Always';
  const from = p.validFrom ? `from ${localIn(p.validFrom, z).replace('T', ' ')}` : '';
  const until = p.validUntil ? `until ${localIn(p.validUntil, z).replace('T', ' ')}` : '';
  return [from, until].filter(Boolean).join(' ');
}

function PromoList({ m, list, active }: { m: Model; list: PromoCode[] | null; active: string }): JSX.Element {
  const s = m.settings;
  const write = canWrite(m);
  const titles = new Map((s.experiences.value ?? []).map((x) => [x.id, x.name]));
  return (
    <>
      <p class="quiet">Codes guests type when booking to take money off. Times in {zoneOf(m)}.</p>
      <Filter
        id="promo-filter"
        label="Show"
        name="active"
        value={active}
        options={[
          ['', 'All codes'],
          ['true', 'Active only'],
          ['false', 'Inactive only'],
        ]}
        onShow={(v) => m.router.setQuery({ active: v })}
      />
      <Cards items={list} empty={active ? 'No promo codes match.' : 'No promo codes yet. Make one below, then share it with your guests.'}>
        {list?.map((p) => {
          const b = { type: 'button', 'aria-describedby': `promo-${p.id}` } as const;
          return (
            <Card
              key={p.id}
              id={`promo-${p.id}`}
              title={p.code}
              off={!p.active}
              facts={[
                ['Discount', discountText(p, currencyOf(m))],
                ['Experiences', p.experienceIds ? p.experienceIds.map((id) => titles.get(id) ?? id).join(', ') : 'All'],
                ['Valid', validity(m, p)],
                ['Uses', p.maxUses === null ? `${p.uses} (no limit)` : `${p.uses} of ${p.maxUses}`],
                ['Status', p.active ? 'Active' : 'Inactive'],
              ]}
            >
              {write ? (
                <>
                  <a class="button" href={`${promoBase()}?edit=${encodeURIComponent(p.id)}`} aria-describedby={`promo-${p.id}`}>
                    Edit
                  </a>
                  <button {...b} aria-disabled={busy(m, p.id)} onClick={() => void actionsOf(m).setPromoActive(p, !p.active)}>
                    {p.active ? 'Deactivate' : 'Activate'}
                  </button>
                  <button {...b} id={`delete-${p.id}`} onClick={() => actionsOf(m).deletePromoCode(p)}>
                    Delete
                  </button>
                </>
              ) : null}
            </Card>
          );
        })}
      </Cards>
      {write ? <PromoForm m={m} editing={null} /> : null}
    </>
  );
}

function PromoForm({ m, editing }: { m: Model; editing: PromoCode | null }): JSX.Element {
  const s = m.settings;
  const form = editing ? 'promo-edit' : 'promo';
  const prefix = `${form}-`;
  const f = s.form(form);
  const field = fieldOf(f, prefix);
  const zone = zoneOf(m);
  const currency = currencyOf(m);
  const p = editing;
  const submit = (e: Event) => {
    const v = formOf(e);
    const el = e.currentTarget as HTMLFormElement;
    void actionsOf(m)
      .savePromoCode(editing, {
        code: v.value('code'),
        discountType: v.value('discountType') === 'AMOUNT' ? 'AMOUNT' : 'PERCENT',
        discountValue: v.value('discountValue'),
        experienceIds: v.all('experienceIds'),
        validFrom: v.value('validFrom'),
        validUntil: v.value('validUntil'),
        maxUses: v.value('maxUses'),
        active: v.checked('active'),
      })
      .then((ok) => {
        if (!ok) return;
        if (editing) m.router.go(promoBase());
        else el.reset();
      });
  };
  const value = p ? (p.discountType === 'PERCENT' ? String(p.discountValue) : (p.discountValue / 100).toFixed(2)) : undefined;
  const experiences = s.experiences.value ?? [];
  const chosen = new Set(p?.experienceIds ?? []);
  const expError = f.fields['experienceIds'];
  return (
    <CreateForm
      id={`${form}-title`}
      title={p ? `Edit promo code ${p.code}` : 'New promo code'}
      state={f}
      button={p ? 'Save promo code' : 'Create promo code'}
      busyButton={p ? 'Saving…' : 'Creating…'}
      onSubmit={submit}
    >
      {field('code', 'Code', { value: p?.code, hint: '3–32 letters, digits, - or _; guests may type it in any case.' })}
      <Select
        idPrefix={prefix}
        name="discountType"
        label="Discount type"
        value={p?.discountType ?? 'PERCENT'}
        options={[
          ['PERCENT', 'Percentage of the total'],
          ['AMOUNT', `Amount in ${currency}`],
        ]}
        error={f.fields['discountType']}
      />
      {field('discountValue', 'Discount', { value, inputMode: 'decimal', hint: `A percentage such as 15, or an amount in ${currency} such as 5.00, as the type says.` })}
      <fieldset class={`choices${expError ? ' invalid' : ''}`} aria-describedby={`${prefix}experienceIds-hint`}>
        <legend>Experiences</legend>
        <p class="hint" id={`${prefix}experienceIds-hint`}>
          None ticked: every experience.
        </p>
        <div class="choice-grid">
          {experiences.map((x) => (
            <div class="field check" key={x.id}>
              <input type="checkbox" id={`${prefix}experienceIds-${x.id}`} name="experienceIds" value={x.id} defaultChecked={chosen.has(x.id)} />
              <label for={`${prefix}experienceIds-${x.id}`}>{x.name}</label>
            </div>
          ))}
        </div>
        {expError ? <p class="field-error">{expError}</p> : null}
      </fieldset>
      {field('validFrom', 'Valid from', { type: 'datetime-local', required: false, value: p?.validFrom ? localIn(p.validFrom, zone) : undefined, hint: `Optional; ${zone} time. Empty: from now.` })}
      {field('validUntil', 'Valid until', { type: 'datetime-local', required: false, value: p?.validUntil ? localIn(p.validUntil, zone) : undefined, hint: `Optional; ${zone} time. From then on it no longer works. Empty: no end.` })}
      {field('maxUses', 'Maximum uses', { required: false, inputMode: 'numeric', value: p?.maxUses ?? undefined, hint: 'Optional. Bookings that took it; a cancelled one gives its use back. Empty: no limit.' })}
      <Checkbox idPrefix={prefix} name="active" label="Active" checked={p?.active ?? true} hint="Guests can use it only while it is active." error={f.fields['active']} />
    </CreateForm>
  );
}

/** A one-select filter that sets the address's query. */
function Filter(p: { id: string; label: string; name: string; value: string; options: [string, string][]; onShow: (value: string) => void }): JSX.Element {
  return (
    <form
      class="filters"
      aria-label={`Filter ${p.label.toLowerCase()}`}
      onSubmit={(e) => {
        e.preventDefault();
        p.onShow(formOf(e).value(p.name));
      }}
    >
      <Select idPrefix={`${p.id}-`} name={p.name} label={p.label} value={p.value} options={p.options} inline />
      <button type="submit">Show</button>
    </form>
  );
}

/* ------------------------------------------------------------------ Gift vouchers */

const voucherBase = () => pathTo('settings', 'gift-vouchers');
const STATUS_WORDS: Record<GiftVoucher['status'], string> = { ACTIVE: 'Active', USED: 'Used up', EXPIRED: 'Expired', DISABLED: 'Disabled' };

export function GiftVouchersSection({ m }: { m: Model }): JSX.Element {
  const search = m.router.location.value.search;
  const id = search.get('voucher');
  if (id) {
    const panel = m.settings.voucher.value;
    return panel?.voucher.id === id ? <VoucherPanelView m={m} /> : <></>;
  }
  return <VoucherList m={m} status={search.get('status') ?? ''} />;
}

const expiry = (m: Model, v: GiftVoucher): JSX.Element | string => (v.expiresAt ? when(m, v.expiresAt) : 'No expiry');

function VoucherButtons({ m, v, describedBy }: { m: Model; v: GiftVoucher; describedBy: string }): JSX.Element | null {
  if (!canWrite(m)) return null;
  const disabled = v.status === 'DISABLED';
  return (
    <button type="button" aria-describedby={describedBy} aria-disabled={busy(m, v.id)} onClick={() => void actionsOf(m).setVoucherStatus(v, disabled ? 'ACTIVE' : 'DISABLED')}>
      {disabled ? 'Enable' : 'Disable'}
    </button>
  );
}

function VoucherList({ m, status }: { m: Model; status: string }): JSX.Element {
  const s = m.settings;
  const page = s.vouchers.value;
  const currency = currencyOf(m);
  const listOf = (offset: number) => `${voucherBase()}?${new URLSearchParams({ ...(status && { status }), ...(offset && { offset: String(offset) }) })}`;
  return (
    <>
      <p class="quiet">Codes that pay for bookings up to their balance. Times in {zoneOf(m)}.</p>
      <Made m={m} />
      <Filter
        id="voucher-filter"
        label="Status"
        name="status"
        value={status}
        options={[['', 'Any status'], ...Object.entries(STATUS_WORDS)]}
        onShow={(v) => m.router.setQuery({ status: v })}
      />
      {page ? (
        page.data.length ? (
          <LogTable
            label="Gift vouchers"
            columns={['Code', 'Amount', 'Balance', 'Status', 'Recipient', 'Expires', '']}
            rows={page.data.map((v) => [
              `voucher-${v.id}`,
              [
                <span class="code">{v.code}</span>,
                money(v.amount, v.currency || currency),
                money(v.balance, v.currency || currency),
                STATUS_WORDS[v.status],
                v.recipientName || v.recipientEmail ? [v.recipientName, v.recipientEmail].filter(Boolean).join(', ') : 'None',
                expiry(m, v),
                <div class="buttons">
                  <a class="button" href={`${voucherBase()}?voucher=${encodeURIComponent(v.id)}`} aria-describedby={`voucher-${v.id}`}>
                    Details
                  </a>
                  <VoucherButtons m={m} v={v} describedBy={`voucher-${v.id}`} />
                </div>,
              ],
            ])}
          />
        ) : (
          <p class="empty">{status ? 'No gift vouchers match.' : 'No gift vouchers yet. Make one below for a guest or a gift.'}</p>
        )
      ) : null}
      {page ? <Pager pagination={page.pagination} label="Gift voucher pages" href={listOf} /> : null}
      {canWrite(m) ? <VoucherForm m={m} /> : null}
    </>
  );
}

/** The date `years` from today in `zone`, `YYYY-MM-DD`. */
function yearsAhead(zone: string, years: number): string {
  const today = localIn(new Date().toISOString(), zone).slice(0, 10);
  return `${Number(today.slice(0, 4)) + years}${today.slice(4)}`.replace(/-02-29$/, '-02-28');
}

function VoucherForm({ m }: { m: Model }): JSX.Element {
  const s = m.settings;
  const f = s.form('voucher');
  const field = fieldOf(f, 'voucher-');
  const zone = zoneOf(m);
  const suggested = yearsAhead(zone, 3);
  const submit = (e: Event) => {
    const v = formOf(e);
    const el = e.currentTarget as HTMLFormElement;
    void actionsOf(m)
      .createVoucher({
        amount: v.value('amount'),
        expiresOn: v.value('expiresAt'),
        suggested,
        noExpiry: v.checked('noExpiry'),
        recipientName: v.value('recipientName'),
        recipientEmail: v.value('recipientEmail'),
        message: v.value('message'),
      })
      .then((ok) => ok && el.reset());
  };
  return (
    <CreateForm id="voucher-title" title="New gift voucher" state={f} button="Create gift voucher" busyButton="Creating…" onSubmit={submit}>
      {field('amount', 'Amount', { inputMode: 'decimal', hint: `In ${currencyOf(m)}, such as 50.00.` })}
      {field('expiresAt', 'Expires on', { type: 'date', required: false, value: suggested, hint: `It works until the end of that day, ${zone} time. Three years from today unless you change it.` })}
      <Checkbox idPrefix="voucher-" name="noExpiry" label="No expiry" />
      {field('recipientName', 'Recipient name', { required: false, hint: 'Optional.' })}
      {field('recipientEmail', 'Recipient e-mail', { type: 'email', required: false, hint: 'Optional. Outing e-mails the code there.' })}
      <TextArea idPrefix="voucher-" name="message" label="Message" rows={3} required={false} error={f.fields['message']} hint="Optional, up to 500 characters, in the e-mail." />
    </CreateForm>
  );
}

/** The voucher just made: its code, to copy and hand over. */
function Made({ m }: { m: Model }): JSX.Element | null {
  const v = m.settings.made.value;
  if (!v) return null;
  return (
    <div class="revealed" role="group" aria-labelledby="made-title">
      <h3 id="made-title" tabIndex={-1}>
        Gift voucher of {money(v.amount, v.currency)} made
      </h3>
      <p>{v.recipientEmail ? `Its code is on its way to ${v.recipientEmail}. ` : ''}It stays listed here; copy it to hand it over.</p>
      <CopyField id="made-code" label="Code" value={v.code} />
      <button type="button" onClick={() => actionsOf(m).hideMade()}>
        Done
      </button>
    </div>
  );
}

function VoucherPanelView({ m }: { m: Model }): JSX.Element {
  const { voucher: v, messages, messagesError } = m.settings.voucher.value!;
  const zone = zoneOf(m);
  const spent = v.redemptions;
  return (
    <>
      <p>
        <a href={voucherBase()}>All gift vouchers</a>
      </p>
      <ul class="records">
        <Card
          id="voucher-title"
          title={`Gift voucher ${v.code}`}
          off={v.status !== 'ACTIVE'}
          facts={[
            ['Amount', money(v.amount, v.currency)],
            ['Balance', money(v.balance, v.currency)],
            ['Status', STATUS_WORDS[v.status]],
            ['Expires', expiry(m, v)],
            ['Recipient', [v.recipientName, v.recipientEmail].filter(Boolean).join(', ') || 'None'],
            v.message ? ['Message', v.message] : null,
            v.purchase ? ['Bought online', `${money(v.purchase.amount, v.currency)} by ${v.purchase.buyerName} (${v.purchase.buyerEmail}), ${v.purchase.provider} ${v.purchase.reference}`] : null,
            ['Created', when(m, v.createdAt)],
          ]}
          body={<CopyField id="voucher-code" label="Code" value={v.code} />}
        >
          <VoucherButtons m={m} v={v} describedBy="voucher-title" />
        </Card>
      </ul>
      <h3 id="redemptions-heading">Redemptions</h3>
      {spent.length ? (
        <LogTable
          label="Redemptions"
          columns={['Booking', 'Amount', 'Date']}
          rows={spent.map((r, i) => [
            `redemption-${i}`,
            [
              <a href={pathTo('bookings', r.bookingId)}>{r.bookingId}</a>,
              r.amount.startsWith('-') ? `${money(r.amount.slice(1), v.currency)} returned` : money(r.amount, v.currency),
              <time dateTime={r.at}>{shortDateIn(r.at, zone)}</time>,
            ],
          ])}
        />
      ) : (
        <p class="empty">Not used yet. Each booking it pays for is listed here, and each return when one is cancelled.</p>
      )}
      <h3 id="voucher-messages-heading">Messages</h3>
      {messagesError ? (
        <p class="alert" role="alert">
          {messagesError}
        </p>
      ) : null}
      {messages?.length ? (
        <LogTable
          label="Messages"
          columns={['E-mail', 'To', 'Status', 'Sent', '']}
          rows={messages.map((x) => [`mail-${x.id}`, [KIND_WORDS[x.kind], x.to, MAIL_STATUS[x.status], x.sentAt ? when(m, x.sentAt) : 'Not yet', <Resend m={m} v={v} x={x} />]])}
        />
      ) : messages ? (
        <p class="empty">No e-mails: one goes to the recipient when the voucher has an e-mail address.</p>
      ) : null}
    </>
  );
}

const MAIL_STATUS: Record<VoucherMessage['status'], string> = { PENDING: 'Waiting to be sent', SENT: 'Sent', FAILED: 'Failed', SKIPPED: 'Not sent: e-mail is not set up' };

function Resend({ m, v, x }: { m: Model; v: GiftVoucher; x: VoucherMessage }): JSX.Element | null {
  if (!canWrite(m)) return null;
  return (
    <button type="button" aria-describedby={`mail-${x.id}`} aria-disabled={busy(m, x.id)} onClick={() => void actionsOf(m).resend(v, x)}>
      {busy(m, x.id) ? 'Resending…' : 'Resend'}
    </button>
  );
}
