import widgetCss from '../styles/widget.css?inline';
import manageCss from './manage.css?inline';

/**
 * The widget's stylesheet and the page's own additions, adopted by the document as constructed
 * sheets: the page's Content-Security-Policy (`style-src 'self'`) refuses style elements and
 * attributes, not the CSSOM.
 */
export function adoptManageStyles(doc: Document): void {
  try {
    const sheets = [widgetCss, manageCss].map((css) => {
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      return sheet;
    });
    doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, ...sheets];
  } catch {
    // An engine without constructable stylesheets: the page still works, unstyled.
  }
}

let brandSheet: CSSStyleSheet | undefined;

/**
 * The organization's brand colour as the page's accent, in a constructed sheet of its own (the CSP
 * refuses style attributes and elements, not the CSSOM); none, the widget's own accent.
 */
export function adoptBrandColor(doc: Document, color: string | null | undefined): void {
  const valid = color && /^#[0-9a-f]{6}$/i.test(color) ? color : null;
  try {
    if (!brandSheet) {
      if (!valid) return;
      brandSheet = new CSSStyleSheet();
      doc.adoptedStyleSheets = [...doc.adoptedStyleSheets, brandSheet];
    }
    brandSheet.replaceSync(valid ? `.manage { --outing-accent: ${valid}; }` : '');
  } catch {
    // An engine without constructable stylesheets: the widget's accent stays.
  }
}
