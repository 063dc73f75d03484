// The part of SaxonJS 2 (npm saxon-js, which ships no types) the tests use: a synchronous transform of a compiled
// stylesheet (SEF).
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal?: object;
    stylesheetFileName?: string;
    stylesheetBaseURI?: string;
    sourceText?: string;
    destination?: 'serialized' | 'raw' | 'document';
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): { principalResult: unknown };
  };
  export default SaxonJS;
}
