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
