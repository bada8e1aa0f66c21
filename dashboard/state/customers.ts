/** The Customers screens' state and actions: search, the list, one customer's page and erasing them. */
import { z } from 'zod';
import { Customer, CustomerErased } from '../../shared/index.js';
import { ApiError, type ListPage } from '../api.js';
import { pathTo, type Location } from '../router.js';
import { Booking } from '../../shared/index.js';
import { createZones, PAGE_SIZE } from './bookings.js';
import { batch, signal } from './signals.js';
import { idleForm, sentenceFor, type Area, type AreaContext, type FormState } from './context.js';

/** A customer's page: the record and its bookings, read as the booking screens read them. */
export const CustomerRecord = Customer.extend({ bookings: z.array(Booking) });
export type CustomerRecord = z.infer<typeof CustomerRecord>;
export type { Customer } from '../../shared/index.js';

/**
 * The server puts placeholders where the person was: the name `erased` and an address at the
 * reserved `.invalid` domain, which no real guest can have.
 */
export const isErased = (c: Customer): boolean => c.email.endsWith('@erased.invalid');

export interface CustomerListState {
  search: string;
  offset: number;
  page: ListPage<Customer> | null;
  loading: boolean;
  error: string | null;
}

export interface CustomerPageState {
  id: string;
  customer: CustomerRecord | null;
  loading: boolean;
  error: string | null;
}

const noList = (): CustomerListState => ({ search: '', offset: 0, page: null, loading: false, error: null });
const noPage = (id = ''): CustomerPageState => ({ id, customer: null, loading: false, error: null });

export function createCustomersModel(ctx: AreaContext) {
  const zones = createZones(ctx);
  const list = signal<CustomerListState>(noList());
  /** The search box as typed, and the form's key (see the bookings' draft). */
  let draft = '';
  const formKey = signal(0);
  const page = signal<CustomerPageState>(noPage());
  /** The "Erase personal data" confirmation, while it is open. */
  const erasing = signal<FormState | null>(null);
  const notice = signal<string | null>(null);
  let generation = 0;

  const path = (id: string) => `/v1/customers/${encodeURIComponent(id)}`;

  async function loadList(search: string, offset: number): Promise<void> {
    const mine = ++generation;
    batch(() => {
      list.value = { ...list.peek(), search, offset, loading: true, error: null };
      if (search !== draft.trim()) formKey.value++;
    });
    draft = search;
    try {
      const [found] = await Promise.all([ctx.http.list(Customer, '/v1/customers', { search, limit: PAGE_SIZE, offset }), zones.loadAll()]);
      if (mine === generation) list.value = { search, offset, page: found, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      list.value = { search, offset, page: null, loading: false, error: sentenceFor(e) };
    }
  }

  async function loadCustomer(id: string): Promise<void> {
    const mine = ++generation;
    const shown = page.peek();
    page.value = { ...(shown.id === id ? shown : noPage(id)), loading: true, error: null };
    try {
      const [customer] = await Promise.all([ctx.http.get(CustomerRecord, path(id)), zones.loadAll()]);
      if (mine === generation) page.value = { id, customer, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      const missing = e instanceof ApiError && e.code === 'NOT_FOUND';
      page.value = { ...noPage(id), error: missing ? 'There is no such customer in this organization.' : sentenceFor(e) };
    }
  }

  const area = {
    enter(location: Location): void {
      if (location.screen === 'customers') {
        const offset = Number(location.search.get('offset') ?? 0);
        void loadList((location.search.get('search') ?? '').trim().slice(0, 200), Number.isInteger(offset) && offset > 0 ? offset : 0);
      } else if (location.screen === 'customer') {
        batch(() => ((erasing.value = null), (notice.value = null)));
        void loadCustomer(location.id);
      }
    },
    reset(): void {
      generation++;
      batch(() => {
        list.value = noList();
        draft = '';
        page.value = noPage();
        erasing.value = null;
        notice.value = null;
        zones.reset();
      });
    },
  } satisfies Area;

  const actions = {
    edit(text: string): void {
      draft = text;
    },
    search(text: string): void {
      ctx.router.setQuery({ search: text.trim() });
    },
    pageHref(offset: number): string {
      const q = new URLSearchParams();
      if (list.value.search) q.set('search', list.value.search);
      if (offset) q.set('offset', String(offset));
      const s = q.toString();
      return `${pathTo('customers')}${s ? `?${s}` : ''}`;
    },
    retry(): void {
      const { screen, id } = ctx.router.location.peek();
      if (screen === 'customer') void loadCustomer(id);
      else void loadList(list.peek().search, list.peek().offset);
    },
    askErase(): void {
      notice.value = null;
      erasing.value = idleForm;
    },
    closeErase(): void {
      if (erasing.peek()?.busy) return;
      ctx.focus('open-erase');
      erasing.value = null;
    },
    async erase(): Promise<void> {
      const c = page.peek().customer;
      if (!c || !erasing.peek() || erasing.peek()!.busy) return;
      erasing.value = { ...idleForm, busy: true };
      const mine = generation;
      try {
        await ctx.http.send(CustomerErased, 'DELETE', path(c.id));
        const customer = await ctx.http.get(CustomerRecord, path(c.id));
        if (mine !== generation) return;
        ctx.focus('customer-notice');
        batch(() => {
          page.value = { ...page.peek(), customer };
          erasing.value = null;
          notice.value = 'The personal data is erased. The bookings keep their numbers and places.';
        });
      } catch (e) {
        if (ctx.ended(e) || mine !== generation) return;
        erasing.value = { ...idleForm, error: sentenceFor(e) };
      }
    },
  };

  return { ...area, list, formKey, page, erasing, notice, zones, isOwner: () => ctx.session.value?.user.role === 'owner', ...actions };
}

export type CustomersModel = ReturnType<typeof createCustomersModel>;
