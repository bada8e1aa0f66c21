import css from './widget.css?inline';

/**
 * The Book-now dialog's own rules, beside the widget's: its box, the backdrop, full screen on a
 * phone. The dialog is also `.outing`: its `all: initial` keeps whatever the page sets on the
 * <outing-dialog> host (or its ancestors) from being inherited inside, which `:host { all: initial }`
 * could not do against the page's own rules for the host, and a `dialog` selector would not beat it
 * where the layout is set here; `:modal` does, coming later.
 */
export const DIALOG_CSS =
  ':modal{box-sizing:border-box;position:fixed;inset:0;margin:auto;max-width:34em;max-height:100%;height:fit-content;overflow:auto}.outing .outing{border:0;padding:0}::backdrop{background:#0009}@media(max-width:479px){:modal{max-width:none;height:100%}}';

// One constructed sheet per text for every widget on the page: adopted sheets may be shared by shadow roots.
const sheets: Record<string, CSSStyleSheet> = {};

/**
 * Adds styles to the shadow root (or document) `node` is in, or is, once, through
 * adoptedStyleSheets, which a strict `style-src 'self'` CSP allows (it governs <style> elements
 * and inline style attributes, not the CSSOM). Without `text`, the widget's own styles; a chunk
 * passes its own (the Widget's `css`, lent by widget.js so that no chunk carries a copy of this).
 */
export function adoptStyles(node: Node | null, text = css): void {
  // A detached element is its own root, with no sheets to adopt into.
  const root = node?.getRootNode() as ShadowRoot | undefined;
  try {
    let sheet = sheets[text];
    if (!sheet) (sheet = sheets[text] = new CSSStyleSheet()).replaceSync(text);
    if (root?.adoptedStyleSheets && !root.adoptedStyleSheets.includes(sheet)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  } catch {
    // Very old engines: the widget still works, unstyled, rather than breaking the host page.
  }
}
