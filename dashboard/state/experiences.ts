/**
 * The Experiences screens' state and actions: the list, one experience's form with its weekly
 * schedule editor, the preview of its next slots (from GET /v1/availability, so what the server
 * will really offer, DST and all) and what the embed snippet needs.
 *
 * The schedule editor's rows live here rather than in the DOM: adding and removing times must
 * survive the app's re-renders, and a refusal's `details[].path` (`schedule.weekly.mon[1]`) is
 * turned into the row it was about by the key that row had when the form was sent.
 */
import {
  ApiKey,
  ApiKeyWithSecret,
  Availability,
  Experience,
  Organization,
  WEEKDAYS,
  type Extra,
  type PriceCategory,
  type Question,
  type QuestionType,
  type ScheduleInput,
  type Weekday,
} from '../../shared/index.js';
import { ApiError, type ListPage } from '../api.js';
import { pathTo, type Location } from '../router.js';
import { batch, signal } from './signals.js';
import { sentenceFor, idleForm, type Area, type AreaContext, type FormState } from './context.js';

export interface TimeRow {
  key: number;
  /** `HH:MM`, or '' while the person has not filled it in. */
  value: string;
}

export interface ExceptionRow {
  key: number;
  date: string;
  /** None: the date is closed. */
  times: TimeRow[];
}

/** A price category's row in the form: its fields are read from the form on submit, by the row's key. */
export interface CategoryRow {
  key: number;
  /** The saved category this row edits (kept on save, so bookings keep pointing at it); undefined: a new one. */
  saved?: PriceCategory;
}

/** A question's row: its fields are read from the form on submit; its type is kept here, as a SELECT shows its options. */
export interface QuestionRow {
  key: number;
  /** The saved question this row edits (its id is sent back, so answers keep pointing at it); undefined: a new one. */
  saved?: Question;
  type: QuestionType;
}

/** An extra's row: its fields are read from the form on submit. */
export interface ExtraRow {
  key: number;
  /** The saved extra this row edits (kept on save, so bookings keep pointing at it); undefined: a new one. */
  saved?: Extra;
}

/** The schedule as the editor holds it; '' stands for "not set" in every text field. */
export interface ScheduleDraft {
  /** '' follows the organization's zone (the API's `timezone: null`). */
  timezone: string;
  weekly: Record<Weekday, TimeRow[]>;
  startDate: string;
  endDate: string;
  exceptions: ExceptionRow[];
  /** The price categories' rows, in the order shown (a refusal's index names one). */
  categories: CategoryRow[];
  /** The questions guests answer when they book, in the order asked. */
  questions: QuestionRow[];
  /** The extras sold beside the tickets, in the order offered. */
  extras: ExtraRow[];
}

/** What the screen reads from its submitted form. */
export interface FormValues {
  value(name: string): string;
  checked(name: string): boolean;
}

/** The form's own fields, by the API's names; a refusal naming another path goes to the form's alert. */
export const EXPERIENCE_FIELDS = [
  'name',
  'description',
  'duration',
  'price',
  'maxParticipants',
  'maxPerBooking',
  'minNoticeMinutes',
  'maxAdvanceDays',
  'active',
  'waitlist',
  'meetingPoint',
  'meetingPointUrl',
  'guestInstructions',
] as const;

let lastKey = 0;
const row = (value = ''): TimeRow => ({ key: ++lastKey, value });

export function emptyDraft(): ScheduleDraft {
  const weekly = {} as Record<Weekday, TimeRow[]>;
  for (const day of WEEKDAYS) weekly[day] = [];
  return { timezone: '', weekly, startDate: '', endDate: '', exceptions: [], categories: [], questions: [], extras: [] };
}

/** The form controls of a category row: `pc-<key>-name`, `pc-<key>-price`, … */
export const categoryField = (key: number, field: string): string => `pc-${key}-${field}`;
const CATEGORY_FIELDS = ['name', 'price', 'type', 'occupiesPlace', 'minAge', 'maxAge'];

/** The form controls of a question's row (`question-<key>-label`, …) and of an extra's (`extra-<key>-price`, …). */
export const questionField = (key: number, field: string): string => `question-${key}-${field}`;
export const extraField = (key: number, field: string): string => `extra-${key}-${field}`;
export const QUESTION_FIELDS = ['label', 'type', 'options', 'required', 'help'];
export const EXTRA_FIELDS = ['name', 'description', 'price', 'per', 'maxQuantity', 'active'];

/** The rows of an experience's saved questions and extras. */
export const questionRowsOf = (list: readonly Question[]): QuestionRow[] => list.map((saved) => ({ key: ++lastKey, saved, type: saved.type }));
export const extraRowsOf = (list: readonly Extra[]): ExtraRow[] => list.map((saved) => ({ key: ++lastKey, saved }));

export function draftOf(schedule: Experience['schedule']): ScheduleDraft {
  const draft = emptyDraft();
  if (!schedule) return draft;
  for (const day of WEEKDAYS) draft.weekly[day] = (schedule.weekly[day] ?? []).map((t) => row(t));
  draft.timezone = schedule.timezone ?? '';
  draft.startDate = schedule.startDate ?? '';
  draft.endDate = schedule.endDate ?? '';
  draft.exceptions = schedule.exceptions.map((x) => ({ key: ++lastKey, date: x.date, times: x.times.map((t) => row(t)) }));
  return draft;
}

/**
 * The draft as the API takes it, rows in the order shown so that a refusal's index names the
 * row it is about; null when there is nothing at all to schedule.
 */
export function scheduleOf(d: ScheduleDraft): ScheduleInput | null {
  const weekly: ScheduleInput['weekly'] = {};
  for (const day of WEEKDAYS) if (d.weekly[day].length) weekly[day] = d.weekly[day].map((t) => t.value);
  const empty = !Object.keys(weekly).length && !d.exceptions.length && !d.timezone && !d.startDate && !d.endDate;
  if (empty) return null;
  return {
    timezone: d.timezone || null,
    weekly,
    startDate: d.startDate || null,
    endDate: d.endDate || null,
    exceptions: d.exceptions.map((x) => ({ date: x.date, times: x.times.map((t) => t.value) })),
  };
}

/** A schedule as the server stores it (times sorted and unique, exceptions by date), to tell whether the editor changed it. */
function canonical(s: ScheduleInput | Experience['schedule']): string {
  if (!s) return 'null';
  const times = (list: readonly string[] | undefined) => [...new Set(list ?? [])].sort();
  const weekly = WEEKDAYS.map((day) => times(s.weekly[day]));
  const exceptions = [...(s.exceptions ?? [])].map((x) => [x.date, times(x.times)] as const).sort((a, b) => (a[0] < b[0] ? -1 : 1));
  return JSON.stringify([s.timezone ?? null, weekly, s.startDate ?? null, s.endDate ?? null, exceptions]);
}

/** Element ids of the editor's controls: errors are keyed by them, and the error summary links to them. */
export const ids = {
  time: (day: Weekday, key: number) => `time-${day}-${key}`,
  addTime: (day: Weekday) => `add-${day}`,
  exceptionDate: (key: number) => `exception-${key}-date`,
  exceptionTime: (key: number, time: number) => `exception-${key}-time-${time}`,
  addExceptionTime: (key: number) => `exception-${key}-add`,
};

/** The control a refused path is about, in the draft as it was sent; undefined: not one of this form's. */
export function fieldOfPath(path: string, sent: ScheduleDraft): string | undefined {
  const pc = /^priceCategories(?:\[(\d+)\](?:\.(\w+))?)?/.exec(path);
  if (pc) {
    const at = pc[1] === undefined ? undefined : sent.categories[Number(pc[1])];
    if (!at) return 'add-category';
    return categoryField(at.key, CATEGORY_FIELDS.includes(pc[2] ?? '') ? pc[2]! : 'name');
  }
  const list = /^(questions|extras)(?:\[(\d+)\](?:\.(\w+))?)?/.exec(path);
  if (list) {
    const questions = list[1] === 'questions';
    const at = list[2] === undefined ? undefined : (questions ? sent.questions : sent.extras)[Number(list[2])];
    if (!at) return questions ? 'add-question' : 'add-extra';
    const names = questions ? QUESTION_FIELDS : EXTRA_FIELDS;
    const field = names.includes(list[3] ?? '') ? list[3]! : names[0]!;
    return questions ? questionField(at.key, field) : extraField(at.key, field);
  }
  if (!path.startsWith('schedule')) {
    const top = path.split(/[.[]/)[0] ?? '';
    return (EXPERIENCE_FIELDS as readonly string[]).includes(top) ? top : undefined;
  }
  const rest = path.slice('schedule'.length).replace(/^\./, '');
  let m: RegExpExecArray | null;
  if ((m = /^(timezone|startDate|endDate)\b/.exec(rest))) return `schedule-${m[1]}`;
  if ((m = /^weekly\.(\w+)(?:\[(\d+)\])?/.exec(rest)) && (WEEKDAYS as readonly string[]).includes(m[1]!)) {
    const day = m[1] as Weekday;
    const at = m[2] === undefined ? undefined : sent.weekly[day][Number(m[2])];
    return at ? ids.time(day, at.key) : ids.addTime(day);
  }
  if ((m = /^exceptions\[(\d+)\](?:\.times(?:\[(\d+)\])?)?/.exec(rest))) {
    const x = sent.exceptions[Number(m[1])];
    if (!x) return 'schedule';
    const t = m[2] === undefined ? undefined : x.times[Number(m[2])];
    if (t) return ids.exceptionTime(x.key, t.key);
    return /\.times/.test(rest) ? ids.addExceptionTime(x.key) : ids.exceptionDate(x.key);
  }
  return 'schedule';
}

/** A refusal as a FormState keyed by control ids; paths the form has no control for are said in the alert. */
export function failureOf(e: unknown, sent: ScheduleDraft): FormState {
  if (!(e instanceof ApiError) || e.code !== 'VALIDATION_ERROR' || !e.details.length) return { busy: false, error: sentenceFor(e), fields: {} };
  const fields: Record<string, string> = {};
  const others: string[] = [];
  for (const d of e.details) {
    const message = d.message.endsWith('.') ? d.message : `${d.message}.`;
    const field = fieldOfPath(d.path, sent);
    if (field === undefined) others.push(d.path ? `${d.path}: ${message}` : message);
    else fields[field] ??= message;
  }
  return { busy: false, error: others.length ? others.join(' ') : null, fields };
}

/** Integer cents from `25`, `25.5` or `25,50`; null when it is not an amount. */
export function centsOf(text: string): number | null {
  const m = /^(\d{1,9})(?:[.,](\d{1,2}))?$/.exec(text.trim());
  return m ? Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0')) : null;
}

const WHOLE = /^\d{1,9}$/;

/** The form read and checked in the browser first; what only the server knows (ranges, zones) it says. */
function bodyOf(form: FormValues, draft: ScheduleDraft): { body: Record<string, unknown>; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const whole = (name: string, missing: string, optional = false): number | null | undefined => {
    const text = form.value(name).trim();
    if (!text) {
      if (!optional) fields[name] = missing;
      return optional ? null : undefined;
    }
    if (!WHOLE.test(text)) {
      fields[name] = 'Enter a whole number, such as 12.';
      return undefined;
    }
    return Number(text);
  };
  /** Guest information: optional text up to `max` characters; empty is null (none). */
  const optional = (field: string, max: number, what: string): string | null => {
    const text = form.value(field).trim();
    if (text.length > max) fields[field] = `Enter ${what} of at most ${max} characters (this one has ${text.length}).`;
    return text || null;
  };
  const name = form.value('name').trim();
  if (!name) fields['name'] = 'Enter the name guests will see.';
  const meetingPointUrl = optional('meetingPointUrl', 500, 'a link');
  if (meetingPointUrl && !fields['meetingPointUrl'] && !/^https:\/\/[^\s/?#]+\.[^\s]*$/i.test(meetingPointUrl)) {
    fields['meetingPointUrl'] = 'Enter a link that starts with https://, such as https://maps.example.com/…';
  }
  const price = centsOf(form.value('price'));
  if (price === null) fields['price'] = 'Enter a price such as 25.00 (0 for free).';
  const body: Record<string, unknown> = {
    name,
    description: form.value('description'),
    duration: whole('duration', 'Enter how long it lasts, in minutes.'),
    price,
    maxParticipants: whole('maxParticipants', 'Enter how many people one time slot takes.'),
    maxPerBooking: whole('maxPerBooking', '', true),
    minNoticeMinutes: whole('minNoticeMinutes', 'Enter the notice in minutes (0 for none).'),
    maxAdvanceDays: whole('maxAdvanceDays', 'Enter how many days ahead guests may book.'),
    active: form.checked('active'),
    waitlist: form.checked('waitlist'),
    schedule: scheduleOf(draft),
    meetingPoint: optional('meetingPoint', 500, 'a meeting point'),
    meetingPointUrl,
    guestInstructions: optional('guestInstructions', 2000, 'instructions'),
  };
  for (const day of WEEKDAYS) {
    for (const t of draft.weekly[day]) if (!t.value) fields[ids.time(day, t.key)] = 'Enter a time, or remove it.';
  }
  for (const x of draft.exceptions) {
    if (!x.date) fields[ids.exceptionDate(x.key)] = 'Enter a date, or remove this exception.';
    for (const t of x.times) if (!t.value) fields[ids.exceptionTime(x.key, t.key)] = 'Enter a time, or remove it.';
  }
  if (draft.startDate && draft.endDate && draft.endDate < draft.startDate) fields['schedule-endDate'] = 'The last day cannot be before the first.';
  body['priceCategories'] = draft.categories.map((c) => {
    const field = (name: string) => categoryField(c.key, name);
    const age = (name: string): number | null => {
      const text = form.value(field(name)).trim();
      if (!text) return null;
      if (!WHOLE.test(text) || Number(text) > 120) fields[field(name)] = 'Enter an age from 0 to 120, or leave it empty.';
      return Number(text);
    };
    const name = form.value(field('name')).trim();
    if (!name) fields[field('name')] = 'Enter the name guests will see, such as Adult.';
    const cents = centsOf(form.value(field('price')));
    if (cents === null) fields[field('price')] = 'Enter a price such as 12.50 (0 for free).';
    return {
      ...(c.saved ? { id: c.saved.id } : {}),
      name,
      price: cents,
      type: form.value(field('type')) || 'OTHER',
      occupiesPlace: form.checked(field('occupiesPlace')),
      minAge: age('minAge'),
      maxAge: age('maxAge'),
    };
  });
  body['questions'] = questionsOf(form, draft, fields);
  body['extras'] = extrasOf(form, draft, fields);
  return { body, fields };
}

/** The questions as the API takes them; a SELECT's options one per line, blank lines dropped. */
function questionsOf(form: FormValues, draft: ScheduleDraft, fields: Record<string, string>): Record<string, unknown>[] {
  return draft.questions.map((q) => {
    const field = (name: string) => questionField(q.key, name);
    const label = form.value(field('label')).trim();
    if (!label) fields[field('label')] = 'Enter the question guests will answer.';
    else if (label.length > 200) fields[field('label')] = `Enter a question of at most 200 characters (this one has ${label.length}).`;
    const options = q.type === 'SELECT' ? form.value(field('options')).split('\n').map((o) => o.trim()).filter(Boolean) : [];
    if (q.type === 'SELECT' && !options.length) fields[field('options')] = 'Enter the choices, one per line.';
    const help = form.value(field('help')).trim();
    if (help.length > 300) fields[field('help')] = `Enter help of at most 300 characters (this one has ${help.length}).`;
    return {
      ...(q.saved ? { id: q.saved.id } : {}),
      label,
      type: q.type,
      options,
      required: form.checked(field('required')),
      help: help || null,
    };
  });
}

/** The extras as the API takes them: price in cents, the maximum a whole number from 1 to 99. */
function extrasOf(form: FormValues, draft: ScheduleDraft, fields: Record<string, string>): Record<string, unknown>[] {
  return draft.extras.map((x) => {
    const field = (name: string) => extraField(x.key, name);
    const name = form.value(field('name')).trim();
    if (!name) fields[field('name')] = 'Enter the name guests will see, such as Lunch.';
    const description = form.value(field('description')).trim();
    if (description.length > 300) fields[field('description')] = `Enter a description of at most 300 characters (this one has ${description.length}).`;
    const price = centsOf(form.value(field('price')));
    if (price === null) fields[field('price')] = 'Enter a price such as 12.50 (0 for free).';
    const max = form.value(field('maxQuantity')).trim();
    if (!WHOLE.test(max) || Number(max) < 1 || Number(max) > 99) fields[field('maxQuantity')] = 'Enter a whole number from 1 to 99.';
    return {
      ...(x.saved ? { id: x.saved.id } : {}),
      name,
      description: description || null,
      price,
      per: form.value(field('per')) === 'PERSON' ? 'PERSON' : 'BOOKING',
      maxQuantity: Number(max),
      active: form.checked(field('active')),
    };
  });
}

/** Questions and extras as the server would store them, to tell whether the form changed them. */
const canonicalQuestions = (list: readonly Record<string, unknown>[]): string =>
  JSON.stringify(list.map((q) => [q['id'] ?? null, q['label'], q['type'], q['options'] ?? [], q['required'] ?? false, q['help'] ?? null]));
const canonicalExtras = (list: readonly Record<string, unknown>[]): string =>
  JSON.stringify(list.map((x) => [x['id'] ?? null, x['name'], x['description'] ?? null, x['price'], x['per'] ?? 'BOOKING', x['maxQuantity'] ?? 10, x['active'] ?? true]));

/** A category list as the server would store it, to tell whether the form changed it. */
const canonicalCategories = (list: readonly Record<string, unknown>[]): string =>
  JSON.stringify(list.map((c) => [c['id'] ?? null, c['name'], c['price'], c['type'], c['occupiesPlace'], c['minAge'] ?? null, c['maxAge'] ?? null]));

/** Only what changed, so a save never overwrites a field with the value it had when the page opened. */
function changesOf(body: Record<string, unknown>, saved: Experience): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(body)) {
    if (k === 'schedule') {
      if (canonical(v as ScheduleInput | null) !== canonical(saved.schedule)) patch[k] = v;
    } else if (k === 'priceCategories') {
      if (canonicalCategories(v as Record<string, unknown>[]) !== canonicalCategories(saved.priceCategories)) patch[k] = v;
    } else if (k === 'questions') {
      if (canonicalQuestions(v as Record<string, unknown>[]) !== canonicalQuestions(saved.questions)) patch[k] = v;
    } else if (k === 'extras') {
      if (canonicalExtras(v as Record<string, unknown>[]) !== canonicalExtras(saved.extras)) patch[k] = v;
    } else if (v !== saved[k as keyof Experience]) patch[k] = v;
  }
  return patch;
}

interface ListState {
  /** The query the page shows (`active`, `offset`), to know when the address asks for another. */
  query: string | null;
  page: ListPage<Experience> | null;
  loading: boolean;
  error: string | null;
}

interface OneState {
  /** The address's id: `new`, or the experience's. */
  id: string;
  experience: Experience | null;
  loading: boolean;
  error: string | null;
}

export interface EmbedState {
  /** Why the keys could not be read. */
  readError: string | null;
  /** A publishable key is being made. */
  busy: boolean;
  /** Why the last "Create a publishable key" was refused. */
  createError: string | null;
  /** What the last "Create a publishable key" did. */
  notice: string | null;
}

const noEmbed: EmbedState = { readError: null, busy: false, createError: null, notice: null };

/**
 * The key the snippet holds: the newest active publishable key whose value Outing keeps (those
 * made before version 1.2 were kept as a hash only).
 */
export function embedKeyOf(keys: readonly ApiKey[]): ApiKey | undefined {
  return keys
    .filter((k) => k.type === 'publishable' && !k.revokedAt && k.key)
    .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0))[0];
}

interface PreviewState {
  availability: Availability | null;
  loading: boolean;
  error: string | null;
}

export function createExperiencesModel(ctx: AreaContext) {
  const list = signal<ListState>({ query: null, page: null, loading: false, error: null });
  const one = signal<OneState>({ id: '', experience: null, loading: false, error: null });
  const form = signal<FormState>(idleForm);
  /** Said after a save ("Saved."), in a status line. */
  const saved = signal<string | null>(null);
  const draft = signal<ScheduleDraft>(emptyDraft());
  const preview = signal<PreviewState>({ availability: null, loading: false, error: null });
  /** The organization's keys, for the snippet's publishable key; null until known. */
  const keys = signal<ApiKey[] | null>(null);
  /** The embed section: the keys could not be read, or a publishable key is being made for it. */
  const embed = signal<EmbedState>(noEmbed);
  const organization = signal<Organization | null>(null);

  let generation = 0;
  /** Set when a create has already put the new record in `one`: entering its address needs no GET. */
  let justCreated: string | null = null;
  /**
   * The address last entered, without and with its hash: a jump inside the page (the skip link)
   * is a navigation too, and must not reload the form under the person's unsaved edits.
   */
  let entered: { key: string; hash: string } | null = null;

  async function loadList(query: URLSearchParams): Promise<void> {
    const mine = ++generation;
    const key = query.toString();
    list.value = { ...list.peek(), query: key, loading: true, error: null };
    const active = query.get('active');
    try {
      const page = await ctx.http.list(Experience, '/v1/experiences', {
        active: active === 'true' || active === 'false' ? active : undefined,
        offset: Number(query.get('offset')) || undefined,
        limit: 20,
      });
      if (mine === generation) list.value = { query: key, page, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      list.value = { query: key, page: null, loading: false, error: sentenceFor(e) };
    }
  }

  /**
   * The organization (for its zone and currency), once a session, and the keys (for the snippet)
   * on every experience opened: one may have been made in Settings meanwhile.
   */
  async function loadSurroundings(): Promise<void> {
    const [org, found] = await Promise.allSettled([
      organization.peek() ?? ctx.http.get(Organization, '/v1/organization'),
      ctx.http.list(ApiKey, '/v1/api-keys', { limit: 100 }).then((p) => p.data),
    ]);
    for (const r of [org, found]) if (r.status === 'rejected' && ctx.ended(r.reason)) return;
    batch(() => {
      if (org.status === 'fulfilled') organization.value = org.value;
      if (found.status === 'fulfilled') keys.value = found.value;
      embed.value = { ...noEmbed, readError: found.status === 'rejected' ? `The keys could not be read: ${sentenceFor(found.reason)}` : null };
    });
  }

  async function loadPreview(experienceId: string): Promise<void> {
    const mine = generation;
    preview.value = { availability: null, loading: true, error: null };
    try {
      const availability = await ctx.http.get(Availability, '/v1/availability', { experienceId });
      if (mine === generation) preview.value = { availability, loading: false, error: null };
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      preview.value = { availability: null, loading: false, error: sentenceFor(e) };
    }
  }

  function show(experience: Experience): void {
    batch(() => {
      one.value = { id: experience.id, experience, loading: false, error: null };
      draft.value = {
        ...draftOf(experience.schedule),
        categories: experience.priceCategories.map((saved) => ({ key: ++lastKey, saved })),
        questions: questionRowsOf(experience.questions),
        extras: extraRowsOf(experience.extras),
      };
    });
    void loadPreview(experience.id);
  }

  async function loadOne(id: string): Promise<void> {
    const mine = ++generation;
    batch(() => {
      one.value = { id, experience: null, loading: id !== 'new', error: null };
      form.value = idleForm;
      saved.value = null;
      draft.value = emptyDraft();
      preview.value = { availability: null, loading: false, error: null };
    });
    void loadSurroundings();
    if (id === 'new') return;
    try {
      const experience = await ctx.http.get(Experience, `/v1/experiences/${encodeURIComponent(id)}`);
      if (mine === generation) show(experience);
    } catch (e) {
      if (ctx.ended(e) || mine !== generation) return;
      const missing = e instanceof ApiError && e.code === 'NOT_FOUND';
      one.value = { id, experience: null, loading: false, error: missing ? 'There is no such experience. It may have been deleted.' : sentenceFor(e) };
    }
  }

  /** Changes the editor's rows; `focus` is the control that should have focus afterwards. */
  const edit = (change: (d: ScheduleDraft) => void, focus?: string) => {
    const next = structuredClone(draft.peek());
    change(next);
    if (focus) ctx.focus(focus);
    draft.value = next;
  };
  const exception = (d: ScheduleDraft, key: number) => d.exceptions.find((x) => x.key === key);

  /** The schedule editor's actions, each one change of the rows. */
  const editor = {
    addTime(day: Weekday): void {
      const added = row();
      edit((d) => d.weekly[day].push(added), ids.time(day, added.key));
    },
    removeTime(day: Weekday, key: number): void {
      edit((d) => (d.weekly[day] = d.weekly[day].filter((t) => t.key !== key)), ids.addTime(day));
    },
    setTime(day: Weekday, key: number, value: string): void {
      edit((d) => d.weekly[day].forEach((t) => t.key === key && (t.value = value)));
    },
    addException(): void {
      const key = ++lastKey;
      edit((d) => d.exceptions.push({ key, date: '', times: [] }), ids.exceptionDate(key));
    },
    removeException(key: number): void {
      edit((d) => (d.exceptions = d.exceptions.filter((x) => x.key !== key)), 'add-exception');
    },
    setExceptionDate(key: number, date: string): void {
      edit((d) => void (exception(d, key) && (exception(d, key)!.date = date)));
    },
    addExceptionTime(key: number): void {
      const added = row();
      edit((d) => exception(d, key)?.times.push(added), ids.exceptionTime(key, added.key));
    },
    removeExceptionTime(key: number, time: number): void {
      edit((d) => {
        const x = exception(d, key);
        if (x) x.times = x.times.filter((t) => t.key !== time);
      }, ids.addExceptionTime(key));
    },
    setExceptionTime(key: number, time: number, value: string): void {
      edit((d) => exception(d, key)?.times.forEach((t) => t.key === time && (t.value = value)));
    },
    set(field: 'timezone' | 'startDate' | 'endDate', value: string): void {
      edit((d) => (d[field] = value));
    },
    addCategory(): void {
      const key = ++lastKey;
      edit((d) => d.categories.push({ key }), categoryField(key, 'name'));
    },
    removeCategory(key: number): void {
      edit((d) => (d.categories = d.categories.filter((c) => c.key !== key)), 'add-category');
    },
    addQuestion(): void {
      const key = ++lastKey;
      edit((d) => d.questions.push({ key, type: 'TEXT' }), questionField(key, 'label'));
    },
    removeQuestion(key: number): void {
      edit((d) => (d.questions = d.questions.filter((q) => q.key !== key)), 'add-question');
    },
    setQuestionType(key: number, type: QuestionType): void {
      edit((d) => d.questions.forEach((q) => q.key === key && (q.type = type)));
    },
    addExtra(): void {
      const key = ++lastKey;
      edit((d) => d.extras.push({ key }), extraField(key, 'name'));
    },
    removeExtra(key: number): void {
      edit((d) => (d.extras = d.extras.filter((x) => x.key !== key)), 'add-extra');
    },
  };

  const area = {
    enter(location: Location): void {
      const key = `${location.screen}/${location.id}?${location.search.toString()}`;
      const jump = entered?.key === key && entered.hash !== location.hash;
      entered = { key, hash: location.hash };
      if (jump) return;
      if (location.screen === 'experiences') {
        const query = new URLSearchParams(location.search);
        const l = list.peek();
        // Back on the list: the same page again, fresh (an experience may just have been saved).
        if (!l.loading || l.query !== query.toString()) void loadList(query);
        return;
      }
      if (justCreated && justCreated === location.id) {
        justCreated = null;
        return;
      }
      void loadOne(location.id);
    },
    reset(): void {
      generation++;
      justCreated = null;
      entered = null;
      batch(() => {
        list.value = { query: null, page: null, loading: false, error: null };
        one.value = { id: '', experience: null, loading: false, error: null };
        form.value = idleForm;
        saved.value = null;
        draft.value = emptyDraft();
        preview.value = { availability: null, loading: false, error: null };
        keys.value = null;
        embed.value = noEmbed;
        organization.value = null;
      });
    },
  } satisfies Area;

  return {
    ...area,
    list,
    one,
    form,
    saved,
    draft,
    preview,
    keys,
    embed,
    organization,
    editor,

    retry(): void {
      const { screen, id, search } = ctx.router.location.peek();
      if (screen === 'experiences') void loadList(search);
      else void loadOne(id);
    },

    /** The keys again, after they could not be read. */
    retryKeys(): void {
      embed.value = noEmbed;
      void loadSurroundings();
    },

    /** A publishable key for the snippet, when the organization has none whose value is kept. */
    async createEmbedKey(): Promise<void> {
      if (embed.peek().busy) return;
      embed.value = { ...noEmbed, busy: true };
      try {
        const made = await ctx.http.send(ApiKeyWithSecret, 'POST', '/v1/api-keys', { name: 'Website widget', type: 'publishable' });
        ctx.focus('embed-snippet');
        batch(() => {
          keys.value = [...(keys.peek() ?? []), made];
          embed.value = { ...noEmbed, notice: `The publishable key “${made.name}” is made, and the snippet holds it.` };
        });
      } catch (e) {
        if (ctx.ended(e)) return;
        embed.value = { ...noEmbed, createError: `No publishable key could be made: ${sentenceFor(e)}` };
      }
    },

    /** Creates the experience (POST) or saves what changed (PATCH), from the submitted form and the editor. */
    async save(values: FormValues): Promise<void> {
      if (form.peek().busy) return;
      const current = one.peek();
      const sent = structuredClone(draft.peek());
      const { body, fields } = bodyOf(values, sent);
      saved.value = null;
      if (Object.keys(fields).length) {
        ctx.focus('error-summary');
        form.value = { busy: false, error: null, fields };
        return;
      }
      const before = current.experience;
      if (before) {
        const patch = changesOf(body, before);
        if (!Object.keys(patch).length) {
          batch(() => {
            form.value = idleForm;
            saved.value = 'Nothing has changed since the last save.';
          });
          return;
        }
        Object.keys(body).forEach((k) => k in patch || delete body[k]);
      } else {
        // Unset on a new experience: the server's defaults (and its following maxParticipants).
        if (body['maxPerBooking'] === null) delete body['maxPerBooking'];
        if (body['schedule'] === null) delete body['schedule'];
        if (body['waitlist'] === false) delete body['waitlist'];
        for (const k of ['priceCategories', 'questions', 'extras']) if ((body[k] as unknown[]).length === 0) delete body[k];
        for (const k of ['meetingPoint', 'meetingPointUrl', 'guestInstructions']) if (body[k] === null) delete body[k];
      }
      const mine = generation;
      form.value = { busy: true, error: null, fields: {} };
      try {
        const result = before
          ? await ctx.http.send(Experience, 'PATCH', `/v1/experiences/${encodeURIComponent(before.id)}`, body)
          : await ctx.http.send(Experience, 'POST', '/v1/experiences', body);
        if (mine !== generation) return;
        batch(() => {
          form.value = idleForm;
          saved.value = before ? 'Saved.' : 'Experience created. Its next slots and its embed snippet are below.';
          // The list shows it next time it is opened.
          list.value = { ...list.peek(), query: null };
          show(result);
        });
        if (!before) {
          justCreated = result.id;
          ctx.router.go(pathTo('experiences', result.id), true);
        }
      } catch (e) {
        if (ctx.ended(e) || mine !== generation) return;
        const failure = failureOf(e, sent);
        ctx.focus(Object.keys(failure.fields).length ? 'error-summary' : 'form-alert');
        form.value = failure;
      }
    },
  };
}

export type ExperiencesModel = ReturnType<typeof createExperiencesModel>;
