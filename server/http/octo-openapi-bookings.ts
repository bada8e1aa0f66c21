/**
 * The booking operations' part of the OCTO OpenAPI document (`/octo/openapi.json`, built by
 * `http/octo-openapi.ts`): their paths (relative to `/octo`) and the components they name.
 */
export const octoBookingPaths: Record<string, Record<string, unknown>> = {};
export const octoBookingSchemas: Record<string, unknown> = {};
