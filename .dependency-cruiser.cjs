// The arrows that must never exist in Outing's house (ARCHITECTURE.md, "Layers"). Checked in
// `npm test` by server/architecture.test.ts, and by hand with
// `npx depcruise server widget dashboard shared --ignore-known`. The imports listed in
// .dependency-cruiser-known-violations.json (the PostgreSQL store modules reading their SQLite twins)
// are the only exceptions, until the store is written once; the test fails on any other, and on a
// listed one that no longer exists.
// Tests may reach across layers (a route test asserts a status, a helper seeds the store).
const TESTS = '\\.test\\.tsx?$|/test-helpers/';
// The store modules both engines share: the Store contract and paging types (index.ts, statements.ts),
// the transaction gate, the due-work notifier, which errors mean an unreachable database
// (unavailable.ts) and private file modes (private-files.ts).
const ENGINE_NEUTRAL = 'index|statements|gate|due-notifier|unavailable|private-files|sql|dialect|slices';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-is-pure',
      comment: 'Domain rules take data and return data: they know no HTTP, no database, no use case and no wire format.',
      severity: 'error',
      from: { path: '^server/domain/', pathNot: TESTS },
      to: { path: '^server/(http|store|routes|services|serializers|jobs|payments|webhooks|ical|net|mail)/|^server/(app|main|cli|config)\\.ts$' },
    },
    {
      name: 'store-knows-no-http',
      comment: 'The store speaks SQL and nothing else: no HTTP, no routes, no use cases, no wire formats.',
      severity: 'error',
      from: { path: '^server/store/', pathNot: TESTS },
      to: { path: '^server/(http|routes|services|serializers|jobs)/' },
    },
    {
      name: 'services-know-no-http',
      comment: 'Use cases refuse with a Refusal; only server/http/ knows statuses, so the CLI and jobs can call them.',
      severity: 'error',
      from: { path: '^server/(services|jobs|payments|webhooks|ical|mail)/', pathNot: TESTS },
      to: { path: '^server/(http|routes)/' },
    },
    {
      name: 'routes-go-through-services',
      comment: 'Routes call services for every read and write; they may name store row types, never call the store.',
      severity: 'error',
      from: { path: '^server/routes/', pathNot: TESTS },
      to: { path: '^server/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'serializers-only-format',
      comment: 'Serializers turn rows into wire shapes: they read no store and run no use case.',
      severity: 'error',
      from: { path: '^server/serializers/', pathNot: TESTS },
      to: { path: '^server/(http|routes|jobs|services)/|^server/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'serializers-name-no-use-case',
      comment: 'The types a serializer formats live in the domain or the store contract, not in a use case.',
      severity: 'error',
      from: { path: '^server/serializers/', pathNot: TESTS },
      to: { path: '^server/services/' },
    },
    {
      name: 'http-calls-no-use-case',
      comment: 'server/http/ is statuses, envelopes, auth and validation: it neither runs nor names a use case.',
      severity: 'error',
      from: { path: '^server/http/', pathNot: TESTS },
      to: { path: '^server/services/' },
    },
    {
      name: 'jobs-go-through-services',
      comment: 'A job decides when work runs; what the work means lives in services, which own the store calls.',
      severity: 'error',
      from: { path: '^server/jobs/', pathNot: TESTS },
      to: { path: '^server/store/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'services-return-rows',
      comment: 'A service returns rows or domain objects; wire shapes are the routes\' business.',
      severity: 'error',
      from: { path: '^server/services/', pathNot: [TESTS, '^server/services/event-log\\.ts$'] },
      to: { path: '^server/serializers/' },
    },
    {
      name: 'event-log-stores-the-delivered-event',
      comment: 'The one exception: the event log keeps each event as the JSON its webhooks deliver, so it calls serializers/event.ts and no other serializer.',
      severity: 'error',
      from: { path: '^server/services/event-log\\.ts$' },
      to: { path: '^server/serializers/', pathNot: '^server/serializers/event\\.ts$' },
    },
    {
      name: 'sqlite-driver-knows-no-postgres',
      comment: 'The SQLite modules never reach into the PostgreSQL driver. open.ts (which picks the engine) and copy.ts (which copies between them) know both on purpose.',
      severity: 'error',
      from: { path: '^server/store/[^/]+\\.ts$', pathNot: [TESTS, `^server/store/(${ENGINE_NEUTRAL}|open|copy)\\.ts$`] },
      to: { path: '^server/store/postgres/' },
    },
    {
      name: 'postgres-driver-knows-no-sqlite',
      comment:
        'The PostgreSQL modules never import the SQLite ones, types included. Today they still take their row types and column lists from them: ' +
        'those imports are listed in .dependency-cruiser-known-violations.json until the store is written once; any other fails.',
      severity: 'error',
      from: { path: '^server/store/postgres/', pathNot: TESTS },
      to: { path: '^server/store/[^/]+\\.ts$', pathNot: `^server/store/(${ENGINE_NEUTRAL})\\.ts$` },
    },
    {
      name: 'widget-is-a-guest',
      comment: 'The widget talks to Outing over HTTP only (its api.ts), and shares nothing but the schemas.',
      severity: 'error',
      from: { path: '^widget/' },
      to: { path: '^(server|dashboard|demo|bench|e2e|reliability|scripts)/' },
    },
    {
      name: 'dashboard-is-a-client',
      comment: 'The dashboard talks to Outing over HTTP only (its api.ts), like any integrator, and shares nothing but the schemas.',
      severity: 'error',
      from: { path: '^dashboard/' },
      to: { path: '^(server|widget|demo|bench|e2e|reliability|scripts)/' },
    },
    {
      name: 'shared-imports-nothing-of-ours',
      comment: 'The schemas are the contract every part builds on: they depend on zod alone.',
      severity: 'error',
      from: { path: '^shared/' },
      to: { path: '^(server|widget|dashboard|demo|bench|e2e|reliability|scripts)/' },
    },
    {
      name: 'no-circular',
      comment: 'Files that import each other in a loop have no floor to stand on.',
      severity: 'error',
      from: { path: '^(server|widget|dashboard|shared)/', pathNot: TESTS },
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: 'node_modules|^dist/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.json'] },
  },
};
