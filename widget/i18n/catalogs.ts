/**
 * Every language's texts in one bundle, for the manage page (its own script, which may carry
 * them). widget.js never imports this module: it carries English alone and fetches the others.
 */
import { en } from './en.js';
import { chooseLanguage } from './index.js';
import type { Language } from './index.js';
import type { Messages } from './messages.js';
import de from './de.json' with { type: 'json' };
import es from './es.json' with { type: 'json' };
import fr from './fr.json' with { type: 'json' };
import it from './it.json' with { type: 'json' };
import nl from './nl.json' with { type: 'json' };
import pt from './pt.json' with { type: 'json' };

export const catalogs: Record<string, Messages> = { en, pt, es, fr, de, it, nl };

/** `chooseLanguage`, with the texts of the language chosen. */
export function pickLanguage(wanted: readonly string[]): Language & { messages: Messages } {
  const language = chooseLanguage(wanted);
  return { ...language, messages: catalogs[language.code]! };
}
