/**
 * What an integrator gets from a typed-client generator. openapi-typescript turns the served
 * document into openapi.generated.d.ts beside this file (outside server/http/: it is the client's
 * view, not part of the server), committed so that a change of the API shows as a diff of types in
 * review; the test below fails while that file is stale (refresh it with
 * `npx vitest run server/openapi-client -u`).
 *
 * The type assertions are checked by `npm run typecheck` (tsc covers test files too): if the
 * document stopped saying that `limit` is an integer or that `bookingNumber` is a string, the
 * typecheck step of `npm test` would fail, not only this file's runtime assertions.
 */
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import openapiTS, { astToString } from 'openapi-typescript';
import { createTestApp, type TestApp } from '../test-helpers/index.js';
import type { components, paths, webhooks } from './openapi.generated.js';

type Schemas = components['schemas'];
type BookingCreateBody = NonNullable<paths['/v1/bookings']['post']['requestBody']>['content']['application/json'];
type BookingCreated = paths['/v1/bookings']['post']['responses'][201]['content']['application/json'];
type BookingList = paths['/v1/bookings']['get'];
type BookingPage = BookingList['responses'][200]['content']['application/json'];
type ExperienceQuery = NonNullable<paths['/v1/experiences']['get']['parameters']['query']>;
type AvailabilityQuery = paths['/v1/availability']['get']['parameters']['query'];
type CancelBody = paths['/v1/bookings/{id}/cancel']['patch']['requestBody'];

describe('types generated from the OpenAPI document', () => {
  it('name the resources and type their fields', () => {
    expectTypeOf<Schemas['Booking']['bookingNumber']>().toEqualTypeOf<string>();
    expectTypeOf<Schemas['Booking']['totalParticipants']>().toEqualTypeOf<number>();
    expectTypeOf<Schemas['Booking']['status']>().toEqualTypeOf<'CONFIRMED' | 'PENDING' | 'CANCELLED'>();
    expectTypeOf<Schemas['Booking']['cancelledAt']>().toEqualTypeOf<string | null>();
    expectTypeOf<Schemas['Booking']['experience']>().toEqualTypeOf<Schemas['BookingExperience']>();
    expectTypeOf<Schemas['Experience']['active']>().toEqualTypeOf<boolean>();
    expectTypeOf<Schemas['Pagination']['hasMore']>().toEqualTypeOf<boolean>();
    expectTypeOf<Schemas['Error']['error']['code']>().toEqualTypeOf<Schemas['ErrorCode']>();
    expectTypeOf<'SLOT_UNAVAILABLE'>().toExtend<Schemas['ErrorCode']>();
  });

  it('type request bodies, with their required and optional fields', () => {
    expectTypeOf<BookingCreateBody>().toEqualTypeOf<Schemas['BookingCreate']>();
    expectTypeOf<BookingCreateBody['experienceId']>().toEqualTypeOf<string>();
    expectTypeOf<BookingCreateBody['participants']>().toEqualTypeOf<number | undefined>();
    expectTypeOf<BookingCreateBody['tickets']>().toEqualTypeOf<Schemas['BookingCreate']['tickets']>();
    expectTypeOf<BookingCreateBody['customerPhone']>().toEqualTypeOf<string | null | undefined>();
    expectTypeOf<BookingCreateBody['metadata']>().toEqualTypeOf<Schemas['Metadata'] | undefined>();
    const body: BookingCreateBody = {
      experienceId: 'exp_5Hk2PqW9sLm3Xa',
      startTime: '2026-06-13T17:30:00+01:00',
      participants: 2,
      customerName: 'Ana Costa',
      customerEmail: 'ana.costa@example.com',
    };
    expect(body.participants).toBe(2);
    // The cancel body may be left out.
    expectTypeOf<undefined>().toExtend<CancelBody>();
  });

  it('type query parameters as the values the server reads', () => {
    expectTypeOf<NonNullable<NonNullable<BookingList['parameters']['query']>['limit']>>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<ExperienceQuery['offset']>>().toEqualTypeOf<number>();
    expectTypeOf<NonNullable<ExperienceQuery['active']>>().toEqualTypeOf<boolean>();
    expectTypeOf<NonNullable<AvailabilityQuery['participants']>>().toEqualTypeOf<number>();
    expectTypeOf<AvailabilityQuery['experienceId']>().toEqualTypeOf<string>();
  });

  it('type success envelopes, lists, headers and webhooks', () => {
    expectTypeOf<BookingCreated['data']>().toEqualTypeOf<Schemas['Booking']>();
    expectTypeOf<BookingPage['data']>().toEqualTypeOf<Schemas['Booking'][]>();
    expectTypeOf<BookingPage['pagination']>().toEqualTypeOf<Schemas['Pagination']>();
    expectTypeOf<paths['/v1/bookings']['post']['responses'][201]['headers']['X-Request-Id']>().toEqualTypeOf<string>();
    type Delivery = NonNullable<webhooks['BOOKING_CREATED']['post']['requestBody']>['content']['application/json'];
    expectTypeOf<Delivery['data']['booking']['bookingNumber']>().toEqualTypeOf<string>();
    expectTypeOf<webhooks['PAYMENT_FAILED']['post']['parameters']['header']['webhook-signature']>().toEqualTypeOf<string>();
  });
});

describe('openapi.generated.d.ts', () => {
  let t: TestApp;
  let doc: unknown;
  beforeAll(async () => {
    t = await createTestApp();
    doc = (await t.request('GET', '/v1/openapi.json', { key: null })).body;
  });
  afterAll(() => t.close());

  it('is what openapi-typescript makes of the served document', async () => {
    const types = astToString(await openapiTS(doc as never, { silent: true }));
    const header =
      '// Generated by openapi-typescript from GET /v1/openapi.json; do not edit.\n' +
      '// Refresh: npx vitest run server/openapi-client -u\n\n';
    await expect(header + types, 'openapi.generated.d.ts is stale: npx vitest run server/openapi-client -u').toMatchFileSnapshot(
      './openapi.generated.d.ts',
    );
  });
});
