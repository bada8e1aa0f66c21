export type { Messages, Plural } from './messages.js';

/**
 * The languages the widget speaks. English is in widget.js; each other one is a JSON file of
 * texts, `widget/i18n/{code}.json`, that the widget fetches from `/widget/{code}.json` when a
 * guest needs it (load.ts). A new language is its file, its code here, and its code in
 * `LOCALES` (shared/schemas/booking.ts) so that bookings may carry it.
 */
export const LANGUAGES = ['en', 'pt', 'es', 'fr', 'de', 'it', 'nl'];

export interface Language {
  /** BCP 47 tag given to Intl, e.g. `pt-PT`: formats follow the region asked for. */
  locale: string;
  /** The language's code in LANGUAGES, e.g. `pt`. */
  code: string;
}

/**
 * The first wanted language the widget speaks, by its primary subtag (a tag of none, or no tag,
 * is skipped); `fallback` otherwise (English; the widget passes '' to wait for the org's default).
 */
export function chooseLanguage(wanted: readonly (string | undefined)[], fallback = 'en'): Language {
  for (const tag of wanted) {
    try {
      // Canonicalizing refuses malformed tags, which would make every Intl formatter throw.
      const locale = Intl.getCanonicalLocales(tag)[0]!;
      const code = locale.split('-')[0]!.toLowerCase();
      if (LANGUAGES.includes(code)) return { locale, code };
    } catch {
      // Not a language tag: the next one.
    }
  }
  return { locale: fallback, code: fallback };
}
