import css from './widget.css?inline';

// One constructed sheet for every widget on the page: adopted sheets may be shared by shadow roots.
let sheet: CSSStyleSheet | null = null;

/**
 * Applies the widget's styles through adoptedStyleSheets, which a strict `style-src 'self'` CSP
 * allows (it governs <style> elements and inline style attributes, not the CSSOM).
 */
export function adoptStyles(root: ShadowRoot): void {
  try {
    if (!sheet) {
      sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
    }
    root.adoptedStyleSheets = [sheet];
  } catch {
    // Very old engines: the widget still works, unstyled, rather than breaking the host page.
  }
}
