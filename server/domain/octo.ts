import { OCTO_CAPABILITY_IDS, OCTO_ERROR_FIELDS, type OctoCapabilityId, type OctoErrorCode } from '../../shared/schemas/octo.js';

/**
 * Why an OCTO request cannot be done, in the OCTO standard's own codes (they are not `/v1`'s, so
 * this is not a `Refusal`): `http/octo.ts` alone turns it into an answer. `value` is what the
 * caller sent for the id at fault, echoed in the field its code names (`productId`, `uuid`, …).
 */
export class OctoRefusal extends Error {
  constructor(
    readonly code: OctoErrorCode,
    message: string,
    readonly value?: string,
  ) {
    super(message);
    this.name = 'OctoRefusal';
  }

  /** The field an answer names the value in, when the code has one. */
  get field(): string | undefined {
    return (OCTO_ERROR_FIELDS as Partial<Record<OctoErrorCode, string>>)[this.code];
  }
}

export const octoBadRequest = (message: string) => new OctoRefusal('BAD_REQUEST', message);
export const octoUnprocessable = (message: string) => new OctoRefusal('UNPROCESSABLE_ENTITY', message);

/**
 * The capabilities a request asks for in `Octo-Capabilities`: comma-separated ids, unknown ones
 * ignored, an empty header the same as none.
 */
export function requestedCapabilities(header: string | undefined): OctoCapabilityId[] {
  if (!header) return [];
  const asked = new Set(header.split(',').map((id) => id.trim().toLowerCase()));
  return OCTO_CAPABILITY_IDS.filter((id) => asked.has(id));
}
