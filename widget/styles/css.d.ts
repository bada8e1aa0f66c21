// Vite's `?inline` import: the stylesheet as one (minified) string, no CSS file emitted.
declare module '*.css?inline' {
  const css: string;
  export default css;
}
