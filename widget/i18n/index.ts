import { en } from './en.js';
import type { Messages } from './messages.js';
import { pt } from './pt.js';

export type { Messages } from './messages.js';

const catalogs: Record<string, Messages> = { en, pt };

export interface Language {
  /** BCP 47 tag given to Intl, e.g. `pt-PT`: formats follow the region asked for. */
  locale: string;
  messages: Messages;
}

/**
 * The first wanted language the widget ships, by its primary subtag; English otherwise.
 * `wanted` is `data-locale` when set, else the browser's languages.
 */
export function pickLanguage(wanted: readonly string[]): Language {
  for (const tag of wanted) {
    let locale: string | undefined;
    try {
      // Canonicalizing refuses malformed tags, which would make every Intl formatter throw.
      locale = Intl.getCanonicalLocales(tag)[0];
    } catch {
      continue;
    }
    const messages = locale ? catalogs[locale.split('-')[0]!.toLowerCase()] : undefined;
    if (locale && messages) return { locale, messages };
  }
  return { locale: 'en', messages: en };
}
