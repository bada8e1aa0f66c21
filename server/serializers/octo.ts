import type { OctoCapability } from '../../shared/schemas/octo.js';

/** What `GET /octo/capabilities` lists. */
export const OCTO_CAPABILITIES: OctoCapability[] = [
  { id: 'octo/pricing', revision: 1, required: false, dependencies: [], docs: null },
];
