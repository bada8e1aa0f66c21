import { parseArgs, type ParseArgsConfig } from 'node:util';
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { loadConfig, ConfigError, type Config } from './config.js';
import { Refusal } from './domain/refusal.js';
import type { Store } from './store/index.js';
import { openStore } from './store/sqlite/store.js';
import { openConfiguredStore, migrateDatabase, databaseLabel } from './store/open.js';
import { isDatabaseFile, restoreDatabase, RestoreError } from './store/sqlite/restore.js';
import { createOrganization } from './services/organizations.js';
import { issueApiKey, revokeApiKey } from './services/api-keys.js';
import { COMMAND_LINE, createUser, listUsers, resetUser } from './services/users.js';
import { serializeApiKey } from './serializers/api-key.js';
import { serializeUser } from './serializers/user.js';
import { serializeOrganization } from './serializers/organization.js';
import { CLI } from './domain/actor.js';
// The server (every route, the workers) is loaded only by `serve`, so the other commands start fast.
import type { RunningServer } from './main.js';
import { canonicalZoneCase, hasBidiControl, idPattern, isTimeZone, CurrencyCode, Email, ROLES, SCOPES, type Role, type Scope } from '../shared/index.js';

/** A failure the operator can fix: printed as one line on stderr, exit code 1. */
class CliError extends Error {}

const USAGE = `Usage: outing <command> [options]

  serve [--port N] [--host H] [--db PATH|--database-url URL] [--demo]     run the server (migrates the schema on start)
  init --name NAME --email EMAIL [--timezone TZ] [--currency CUR] [--db PATH|--database-url URL]
                                                       create an organization with its first keys and owner
  orgs list [--db PATH|--database-url URL]            the organizations, with their ids (ORG_ID below)
  keys create [--org ORG_ID] --name NAME [--scopes a,b] [--publishable] [--db PATH|--database-url URL]
  keys list [--org ORG_ID] [--db PATH|--database-url URL]
  keys revoke KEY_ID [--db PATH|--database-url URL]
  users create [--org ORG_ID] --email EMAIL --name NAME [--role owner|staff] [--db PATH|--database-url URL]
  users list [--org ORG_ID] [--db PATH|--database-url URL]
  users reset --email EMAIL [--db PATH|--database-url URL]
  migrate [--db PATH|--database-url URL]              apply the schema's pending changes, then exit
  backup FILE [--db PATH]                              online backup of a SQLite file, safe while serving
  restore FILE [--db PATH]                             put a backup in place (the server must be stopped)
  copy --from FILE --to URL                            copy a SQLite installation into an empty PostgreSQL database

--org may be left out while the database holds one organization. Run outing COMMAND --help for one
command. Environment: PORT, HOST, DATABASE_PATH, DATABASE_URL, PUBLIC_URL, … (see README); flags win.`;

/** Where an organization's id is found, for the messages of the commands that take --org. */
const ORG_HINT = 'outing orgs list shows the ids (outing init printed yours as organizationId)';

/** What `outing COMMAND --help` prints: the command's line of USAGE, and what to know before running it. */
const COMMAND_USAGE: Record<string, string> = {
  serve: `Usage: outing serve [--port N] [--host H] [--db PATH|--database-url URL] [--demo]

Runs the server (migrating the database first). --demo creates a demo organization on an empty
database and prints its keys. Stops cleanly on SIGTERM or SIGINT.`,
  init: `Usage: outing init --name NAME --email EMAIL [--timezone TZ] [--currency CUR] [--db PATH|--database-url URL]

Creates an organization with its first secret key, publishable key and iCal feed, and an owner
who signs in to the dashboard with EMAIL (ownerSetupUrl: the link where they choose a password,
valid 72 hours), creating the database when there is none. Prints them as JSON on stdout, once.
Defaults: UTC, USD.`,
  orgs: `Usage: outing orgs list [--db PATH|--database-url URL]

Run outing orgs list --help for more.`,
  'orgs list': `Usage: outing orgs list [--db PATH|--database-url URL]

Lists the organizations on this database as JSON on stdout, oldest first: their ids are what --org
takes. Commands that take --org use the only organization when there is one.`,
  keys: `Usage: outing keys create [--org ORG_ID] --name NAME [--scopes a,b] [--publishable] [--db PATH|--database-url URL]
       outing keys list [--org ORG_ID] [--db PATH|--database-url URL]
       outing keys revoke KEY_ID [--db PATH|--database-url URL]

Run outing keys create --help (or list, revoke) for one of them. --org may be left out while the
database holds one organization; ${ORG_HINT}.`,
  'keys create': `Usage: outing keys create [--org ORG_ID] --name NAME [--scopes a,b] [--publishable] [--db PATH|--database-url URL]

Creates an API key and prints it as JSON on stdout, once. A secret key has every scope unless
--scopes names some (${SCOPES.join(', ')}); --publishable makes a key for the widget, which takes no scopes.
Without --org: the database's only organization.`,
  'keys list': `Usage: outing keys list [--org ORG_ID] [--db PATH|--database-url URL]

Lists an organization's keys as JSON on stdout (never the keys themselves). Without --org: the
database's only organization.`,
  'keys revoke': `Usage: outing keys revoke KEY_ID [--db PATH|--database-url URL]

Revokes a key: requests with it are refused from then on.`,
  users: `Usage: outing users create [--org ORG_ID] --email EMAIL --name NAME [--role owner|staff] [--db PATH|--database-url URL]
       outing users list [--org ORG_ID] [--db PATH|--database-url URL]
       outing users reset --email EMAIL [--db PATH|--database-url URL]

Run outing users create --help (or list, reset) for one of them. --org may be left out while the
database holds one organization; ${ORG_HINT}.`,
  'users create': `Usage: outing users create [--org ORG_ID] --email EMAIL --name NAME [--role owner|staff] [--db PATH|--database-url URL]

Adds a person who signs in to the dashboard (role staff unless told; owners hold every scope).
Prints the user as JSON on stdout with setupUrl, the link where they choose a password: it works
once, for 72 hours, and is shown only now. An e-mail address names one user on the whole server.
Without --org: the database's only organization.`,
  'users list': `Usage: outing users list [--org ORG_ID] [--db PATH|--database-url URL]

Lists an organization's users as JSON on stdout. Without --org: the database's only organization.`,
  'users reset': `Usage: outing users reset --email EMAIL [--db PATH|--database-url URL]

For a forgotten or leaked password: the password stops working, every session of the user ends at
once, and a new setup link (valid 72 hours) is printed as JSON on stdout.`,
  migrate: `Usage: outing migrate [--db PATH|--database-url URL]

Applies the database's pending schema changes and exits, printing the versions applied as JSON.
\`serve\` does the same at start; several processes starting at once apply each change once.`,
  backup: `Usage: outing backup FILE [--db PATH]

Writes a consistent copy of the database to FILE, safely while the server runs. FILE must not be
the database itself, its -wal/-shm/-journal file, or a link to any of them. A PostgreSQL database
is backed up with pg_dump.`,
  restore: `Usage: outing restore FILE [--db PATH]

Replaces the database with the backup FILE. The server must be stopped first.`,
  copy: `Usage: outing copy --from FILE --to URL

Copies the whole SQLite installation FILE (every organization, booking, key and token hash, event,
pending delivery and message) into the PostgreSQL database URL, in one transaction, and prints
{"from","to","tables","rows"} as JSON. FILE is only read: stop the server first (a copy is refused
while one holds FILE), and run outing migrate --db FILE first if its schema is not the latest.
URL is migrated, and must be empty: a database with any row is refused. Then point the server at
URL (DATABASE_URL) and keep FILE until you are satisfied.`,
};

/** `--help` or `-h` among a command's arguments (before a `--` that ends the options). */
function wantsHelp(args: string[]): boolean {
  for (const arg of args) {
    if (arg === '--') return false;
    if (arg === '--help' || arg === '-h') return true;
  }
  return false;
}

const printJson = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

function parse<const O extends NonNullable<ParseArgsConfig['options']>>(args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true as const, strict: true as const });
  } catch (err) {
    throw new CliError(err instanceof Error ? err.message : String(err));
  }
}

/** Where the data is: a SQLite file (--db) or a PostgreSQL database (--database-url). */
const DATABASE_FLAGS = { db: { type: 'string' }, 'database-url': { type: 'string' } } as const;

function configOf(values: { db?: string | boolean; 'database-url'?: string | boolean }) {
  const text = (v: string | boolean | undefined) => (typeof v === 'string' ? v : undefined);
  return loadConfig(process.env, { db: text(values.db), databaseUrl: text(values['database-url']) });
}

/** Commands that work on the SQLite file itself. */
function sqliteOnly(config: { databaseUrl: string | undefined }, what: string, instead: string): void {
  if (config.databaseUrl !== undefined) throw new CliError(`${what} works on a SQLite file; on PostgreSQL, ${instead}`);
}

/** Refuses arguments past the `expected` ones a command takes. */
function noMoreArguments(positionals: readonly string[], expected = 0): void {
  if (positionals.length > expected) throw new CliError(`Unexpected argument: ${positionals[expected]}`);
}

/**
 * The organization a command works on: the one `--org` names, which must exist, or without it the
 * database's only one (said on stderr, so that nobody wonders which).
 */
async function organizationOf(store: Store, org: string | boolean | undefined): Promise<string> {
  if (typeof org === 'string' && org.trim() !== '') {
    const orgId = org.trim();
    if (!idPattern('organization').test(orgId) || !await store.organizations.getOrganization(orgId)) throw new CliError(`No organization ${orgId}: ${ORG_HINT}`);
    return orgId;
  }
  if (org !== undefined) throw new CliError(`--org needs an organization id: ${ORG_HINT}`);
  const [only, another] = await store.organizations.listOrganizations(2);
  if (!only) throw new CliError('This database has no organization yet: create one with outing init');
  if (another) throw new CliError(`--org is required: this database holds several organizations; ${ORG_HINT}`);
  process.stderr.write(`Organization ${only.id} (${only.name}), the only one in this database.\n`);
  return only.id;
}

function required(value: string | boolean | undefined, flag: string): string {
  if (typeof value !== 'string' || value.trim() === '') throw new CliError(`${flag} is required`);
  return value;
}

/** Opens the database; only `init` may create it, the other commands need one that exists. */
async function withStore<T>(config: Config, work: (store: Store) => T | Promise<T>, options: { create?: boolean } = {}): Promise<T> {
  if (config.databaseUrl === undefined && !options.create && !existsSync(config.databasePath)) {
    throw new CliError(`No database at ${config.databasePath}: run outing init first, or pass --db`);
  }
  const store = await openConfiguredStore(config);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** Names of organizations and people follow the API's rule (shared DisplayName). */
const BIDI_IN_NAME = '--name must not contain bidirectional control characters (U+202A–U+202E, U+2066–U+2069)';

async function init(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    name: { type: 'string' },
    email: { type: 'string' },
    timezone: { type: 'string' },
    currency: { type: 'string' },
    ...DATABASE_FLAGS,
  });
  noMoreArguments(positionals);
  const name = required(values.name, '--name').trim();
  if (name.length > 200) throw new CliError('--name must be at most 200 characters');
  if (hasBidiControl(name)) throw new CliError(BIDI_IN_NAME);
  const email = required(values.email, '--email').trim();
  if (!Email.safeParse(email).success) throw new CliError(`--email is not an e-mail address: ${email}`);
  const zone = typeof values.timezone === 'string' ? values.timezone : 'UTC';
  if (!isTimeZone(zone)) throw new CliError(`--timezone is not an IANA time zone: ${zone}`);
  const timezone = canonicalZoneCase(zone);
  const currency = typeof values.currency === 'string' ? values.currency.toUpperCase() : 'USD';
  if (!CurrencyCode.safeParse(currency).success) {
    throw new CliError(`--currency must be an ISO 4217 code with two decimals (EUR, USD, GBP…): ${currency}`);
  }
  const config = configOf(values);
  const created = await withStore(
    config,
    async (store) => await createOrganization(store, { name, email, timezone, currency, owner: { email, name } }, config.publicUrl, Date.now()),
    { create: true },
  );
  process.stderr.write(`Organization ${created.organization.id} created. The keys are shown only now: store them safely.\n`);
  printJson({
    organizationId: created.organization.id,
    apiKeyId: created.apiKeyId,
    apiKey: created.apiKey,
    publishableKey: created.publishableKey,
    icalFeedUrl: created.icalFeedUrl,
    ownerSetupUrl: created.ownerSetupUrl,
  });
}

function parseScopes(raw: string): Scope[] {
  const scopes = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new CliError(`Unknown scope ${unknown.join(', ')}; scopes are: ${SCOPES.join(', ')}`);
  if (!scopes.length) throw new CliError('--scopes needs at least one scope');
  return scopes as Scope[];
}

async function keys(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values, positionals } = parse(rest, {
      org: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      publishable: { type: 'boolean' },
      ...DATABASE_FLAGS,
    });
    noMoreArguments(positionals);
    const name = required(values.name, '--name').trim();
    if (name.length > 200) throw new CliError('--name must be at most 200 characters');
    const publishable = values.publishable === true;
    if (publishable && values.scopes !== undefined) throw new CliError('Publishable keys take no scopes');
    const scopes = typeof values.scopes === 'string' ? parseScopes(values.scopes) : undefined;
    const config = configOf(values);
    const key = await withStore(config, async (store) => {
      const orgId = await organizationOf(store, values.org);
      return await issueApiKey(store, { orgId, scopes: ['*'], actor: CLI }, { name, type: publishable ? 'publishable' : 'secret', scopes }, Date.now());
    });
    process.stderr.write('The key is shown only now: store it safely.\n');
    const { id, type, scopes: granted } = serializeApiKey(key.row);
    printJson({ id, name: key.row.name, type, scopes: granted, key: key.key });
    return;
  }
  if (action === 'list') {
    const { values, positionals } = parse(rest, { org: { type: 'string' }, ...DATABASE_FLAGS });
    noMoreArguments(positionals);
    const config = configOf(values);
    const data = await withStore(config, async (store) => (await store.apiKeys.listApiKeys(await organizationOf(store, values.org))).map(serializeApiKey));
    printJson({ data });
    return;
  }
  if (action === 'revoke') {
    const { values, positionals } = parse(rest, { ...DATABASE_FLAGS });
    const keyId = positionals[0];
    if (!keyId) throw new CliError('keys revoke needs a KEY_ID');
    noMoreArguments(positionals, 1);
    const config = configOf(values);
    const revoked = await withStore(config, async (store) => {
      const row = idPattern('apiKey').test(keyId) ? await store.apiKeys.getApiKey(keyId) : undefined;
      if (!row) throw new CliError(`No API key ${keyId}`);
      return serializeApiKey(await revokeApiKey(store, row.orgId, CLI, keyId, Date.now()));
    });
    process.stderr.write(`Key ${revoked.id} revoked; requests with it are refused from now on.\n`);
    printJson({ id: revoked.id, revokedAt: revoked.revokedAt });
    return;
  }
  throw new CliError(`Unknown keys command ${action}; use keys create, keys list or keys revoke`);
}

/** `outing orgs list`: the organizations, oldest first, as the API shows them. */
async function orgs(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'list') {
    const { values, positionals } = parse(rest, { ...DATABASE_FLAGS });
    noMoreArguments(positionals);
    const config = configOf(values);
    const data = await withStore(config, async (store) => (await store.organizations.listOrganizations(10_000)).map(serializeOrganization));
    printJson({ data });
    return;
  }
  throw new CliError(`Unknown orgs command ${action}; use orgs list`);
}

async function users(args: string[]): Promise<void> {
  const [action, ...rest] = args;
  if (action === 'create') {
    const { values, positionals } = parse(rest, {
      org: { type: 'string' },
      email: { type: 'string' },
      name: { type: 'string' },
      role: { type: 'string' },
      ...DATABASE_FLAGS,
    });
    noMoreArguments(positionals);
    const email = required(values.email, '--email').trim();
    if (!Email.safeParse(email).success) throw new CliError(`--email is not an e-mail address: ${email}`);
    const name = required(values.name, '--name').trim();
    if (name.length > 200) throw new CliError('--name must be at most 200 characters');
    if (hasBidiControl(name)) throw new CliError(BIDI_IN_NAME);
    const role = typeof values.role === 'string' ? values.role : 'staff';
    if (!(ROLES as readonly string[]).includes(role)) throw new CliError(`--role must be one of ${ROLES.join(', ')}: ${role}`);
    const config = configOf(values);
    const done = await withStore(config, async (store) => {
      const orgId = await organizationOf(store, values.org);
      return await createUser(store, orgId, COMMAND_LINE, { email, name, role: role as Role }, config.publicUrl, Date.now());
    });
    process.stderr.write(`User ${done.user.id} created. Send them the setup link (valid 72 hours, shown only now).\n`);
    printJson({ id: done.user.id, email: done.user.email, name: done.user.name, role: done.user.role, setupUrl: done.setupUrl });
    return;
  }
  if (action === 'list') {
    const { values, positionals } = parse(rest, { org: { type: 'string' }, ...DATABASE_FLAGS });
    noMoreArguments(positionals);
    const config = configOf(values);
    const data = await withStore(config, async (store) => (await listUsers(store, await organizationOf(store, values.org))).map(serializeUser));
    printJson({ data });
    return;
  }
  if (action === 'reset') {
    const { values, positionals } = parse(rest, { email: { type: 'string' }, ...DATABASE_FLAGS });
    noMoreArguments(positionals);
    const email = required(values.email, '--email').trim();
    const config = configOf(values);
    const done = await withStore(config, async (store) => {
      if (!await store.users.getUserByEmail(email)) throw new CliError(`No user with the e-mail ${email}`);
      return await resetUser(store, CLI, email, config.publicUrl, Date.now());
    });
    process.stderr.write(`Password of ${done.user.id} reset and every session ended. Send them the new setup link (valid 72 hours).\n`);
    printJson({ id: done.user.id, setupUrl: done.setupUrl });
    return;
  }
  throw new CliError(`Unknown users command ${action}; use users create, users list or users reset`);
}

async function backup(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { ...DATABASE_FLAGS });
  const file = positionals[0];
  if (!file) throw new CliError('backup needs a FILE');
  noMoreArguments(positionals, 1);
  const config = configOf(values);
  sqliteOnly(config, 'outing backup', 'back up with pg_dump (pg_dump --format=custom --file=FILE URL)');
  const target = resolve(file);
  if (isDatabaseFile(target, config.databasePath)) {
    throw new CliError('The backup file must not be the database itself (nor its -wal, -shm or -journal file, nor a link to one)');
  }
  try {
    statSync(config.databasePath);
  } catch {
    throw new CliError(`No database at ${config.databasePath}`);
  }
  const store = openStore(config.databasePath);
  try {
    let lastShown = 0;
    let pages = 0;
    await store.backupTo(target, (done, total) => {
      pages = total;
      if (total > 25_000 && Date.now() - lastShown > 1000) {
        lastShown = Date.now();
        process.stderr.write(`backup: ${Math.round((done / total) * 100)}% (${done}/${total} pages)\n`);
      }
    });
    // better-sqlite3 reports every step but the last: once progress was shown, show its end too.
    if (lastShown) process.stderr.write(`backup: 100% (${pages}/${pages} pages)\n`);
  } catch (err) {
    throw new CliError(`Backup failed: ${err instanceof Error ? err.message : String(err)}`);
  } finally {
    await store.close();
  }
  printJson({ file: target, bytes: statSync(target).size });
}

/** `outing migrate`: the pending schema changes, applied (opening the store applies them), then exit. */
async function migrateCommand(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { ...DATABASE_FLAGS });
  noMoreArguments(positionals);
  const config = configOf(values);
  try {
    printJson(await migrateDatabase(config));
  } catch (err) {
    throw new CliError(`Migration failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/** `outing restore FILE`: replaces the database with a backup; refuses while a server holds it. */
function restore(args: string[]): void {
  const { values, positionals } = parse(args, { ...DATABASE_FLAGS });
  const file = positionals[0];
  if (!file) throw new CliError('restore needs a FILE');
  noMoreArguments(positionals, 1);
  const config = configOf(values);
  sqliteOnly(config, 'outing restore', 'restore with pg_restore');
  let bytes: number;
  try {
    ({ bytes } = restoreDatabase(file, config.databasePath));
  } catch (err) {
    if (err instanceof RestoreError) throw new CliError(err.message);
    throw new CliError(`Restore failed: ${err instanceof Error ? err.message : String(err)}`);
  }
  process.stderr.write(`Restored ${resolve(file)} into ${config.databasePath}; start the server again.\n`);
  printJson({ restored: resolve(file), db: config.databasePath, bytes });
}

/** `outing copy --from FILE --to URL`: a SQLite installation into an empty PostgreSQL database. */
async function copy(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, { from: { type: 'string' }, to: { type: 'string' } });
  noMoreArguments(positionals);
  const from = resolve(required(values.from, '--from'));
  const to = required(values.to, '--to').trim();
  let protocol: string;
  try {
    protocol = new URL(to).protocol;
  } catch {
    throw new CliError('--to must be a postgres:// URL');
  }
  if (protocol !== 'postgres:' && protocol !== 'postgresql:') throw new CliError(`--to must be a postgres:// URL, got ${protocol}//…`);
  const databaseUrl = to;
  const started = Date.now();
  let lastShown = started;
  // Loaded here: the copy brings the PostgreSQL driver, which no other command on SQLite needs at start.
  const { copySqliteToPostgres, CopyError } = await import('./store/copy.js');
  let result;
  try {
    result = await copySqliteToPostgres(from, databaseUrl, {
      onProgress: (table, done, total) => {
        // Only a large table is worth a word: the demo's month copies in well under a second.
        if (total >= 50_000 && Date.now() - lastShown > 1000) {
          lastShown = Date.now();
          process.stderr.write(`copy: ${table} ${done}/${total} rows\n`);
        }
      },
    });
  } catch (err) {
    if (err instanceof CopyError) throw new CliError(err.message);
    throw new CliError(`Copy failed, nothing was copied: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (lastShown !== started) process.stderr.write(`copy: done, ${result.rows} rows in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  printJson({ from, to: databaseLabel({ databasePath: from, databaseUrl }), tables: result.tables, rows: result.rows });
}

/** Where guest e-mails go, without the credentials SMTP_URL may hold. */
function mailLine(smtpUrl: string | undefined): string {
  if (smtpUrl === undefined) return 'E-mails to guests: off (set SMTP_URL to send them; each is logged as SKIPPED)';
  const url = new URL(smtpUrl);
  return `E-mails to guests: sent through ${url.protocol}//${url.host}`;
}

function banner(url: string, publicUrl: string, demo: RunningServer['demo'], smtpUrl: string | undefined, demoMode: boolean): string {
  const lines = [`Outing is listening on ${url} (public URL ${publicUrl})`, mailLine(smtpUrl)];
  if (demo) {
    lines.push(
      '',
      'Demo organization created. These keys and the owner’s password are shown once: keep them.',
      `  Secret key:       ${demo.apiKey}`,
      `  Publishable key:  ${demo.publishableKey}`,
      `  iCal feed:        ${demo.icalFeedUrl}`,
      `  Dashboard:        ${demo.dashboardUrl}`,
      `  Owner e-mail:     ${demo.ownerEmail}`,
      `  Owner password:   ${demo.ownerPassword}`,
      '',
      'Try:',
      `  Demo site:        ${publicUrl}/demo`,
      `  API reference:    ${publicUrl}/docs`,
      `  curl -H "Authorization: Bearer ${demo.apiKey}" ${publicUrl}/v1/experiences`,
    );
  } else {
    lines.push(
      `  Dashboard:        ${publicUrl}/dashboard   (a forgotten password: outing users reset --email EMAIL)`,
      `  Demo site:        ${publicUrl}/demo`,
      `  API reference:    ${publicUrl}/docs`,
    );
  }
  // So that this stays on screen: the demo logs its requests at debug.
  if (demoMode) lines.push('', 'Requests are not logged in the demo, so that this stays readable: LOG_LEVEL=debug shows them.');
  return `${lines.join('\n')}\n`;
}

async function serve(args: string[]): Promise<void> {
  const { values, positionals } = parse(args, {
    port: { type: 'string' },
    host: { type: 'string' },
    ...DATABASE_FLAGS,
    demo: { type: 'boolean' },
  });
  noMoreArguments(positionals);
  const config = loadConfig(process.env, {
    port: values.port,
    host: values.host,
    db: values.db,
    databaseUrl: values['database-url'],
  });
  const { startServer } = await import('./main.js');
  let running: RunningServer;
  try {
    running = await startServer(config, { demo: values.demo === true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`Port ${config.port} on ${config.host} is already in use`);
    if (code === 'EACCES') throw new CliError(`No permission to listen on ${config.host}:${config.port}`);
    throw err;
  }
  const shutdown = (signal: string) => {
    process.stderr.write(`${signal} received: finishing in-flight requests, then stopping\n`);
    running.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  // Before the banner: whoever waits for it may signal at once, and a signal without a listener kills.
  process.once('SIGTERM', () => shutdown('SIGTERM'));
  process.once('SIGINT', () => shutdown('SIGINT'));
  process.stderr.write(banner(running.url, running.publicUrl, running.demo, config.smtpUrl, values.demo === true));
}

/** The commands that group others, and theirs. */
const GROUPS: Record<string, readonly string[]> = { orgs: ['list'], keys: ['create', 'list', 'revoke'], users: ['create', 'list', 'reset'] };

export async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  const group = command !== undefined && Object.hasOwn(GROUPS, command) ? GROUPS[command] : undefined;
  // Before any parsing, so that help works whatever else is on the line. Human text: stderr, like USAGE.
  const sub = group?.includes(args[0] ?? '') ? `${command} ${args[0]}` : command;
  const help = sub !== undefined && Object.hasOwn(COMMAND_USAGE, sub) ? COMMAND_USAGE[sub] : undefined;
  if (help !== undefined && wantsHelp(sub === command ? args : args.slice(1))) {
    process.stderr.write(`${help}\n`);
    return;
  }
  // A group without its command (`outing keys`, `outing users --org …`): what the group offers.
  if (group && help !== undefined && (args[0] === undefined || args[0].startsWith('-'))) {
    process.stderr.write(`${help}\n`);
    process.exitCode = 1;
    return;
  }
  try {
    switch (command) {
      case 'serve':
        return await serve(args);
      case 'init':
        return await init(args);
      case 'orgs':
        return await orgs(args);
      case 'keys':
        return await keys(args);
      case 'users':
        return await users(args);
      case 'backup':
        return await backup(args);
      case 'restore':
        return restore(args);
      case 'migrate':
        return await migrateCommand(args);
      case 'copy':
        return await copy(args);
      case undefined:
      case '--help':
      case '-h':
      case 'help':
        process.stderr.write(`${USAGE}\n`);
        if (command === undefined) process.exitCode = 1;
        return;
      default:
        throw new CliError(`Unknown command ${command}. Run outing --help`);
    }
  } catch (err) {
    const message =
      err instanceof CliError || err instanceof ConfigError || err instanceof Refusal
        ? err.message
        : `Unexpected error: ${err instanceof Error ? err.message : String(err)}`;
    process.stderr.write(`outing: ${message.split('\n')[0]}\n`);
    process.exitCode = 1;
  }
}
