/**
 * Imported first by main.tsx, before any schema exists: zod decides at construction whether to
 * compile parsers with `new Function`, and merely probing for it under the dashboard's CSP (no
 * 'unsafe-eval') is reported as a CSP violation. Jitless parsing is plenty fast for our answers.
 */
import { config } from 'zod';

config({ jitless: true });
