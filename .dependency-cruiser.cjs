// The arrows that must never exist in Outing's house (ARCHITECTURE.md, "Layers"). Checked in
// `npm test` by server/architecture.test.ts, and by hand with `npx depcruise server widget shared`.
// Tests may reach across layers (a route test asserts a status, a helper seeds the store).
const TESTS = '\\.test\\.tsx?$|/test-helpers/';

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
      to: { path: '^server/(http|routes|jobs)/|^server/(store|services)/', dependencyTypesNot: ['type-only'] },
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
