// The part of SaxonJS 2 (npm saxon-js, which ships no types) the service and the tests use: a synchronous transform
// of a compiled stylesheet (SEF), and reading an XML file into a document for a transform's documentPool.
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal?: object;
    stylesheetFileName?: string;
    stylesheetBaseURI?: string;
    sourceText?: string;
    destination?: 'serialized' | 'raw' | 'document';
    /** Documents that document() / doc() get without reading them, by absolute URI. */
    documentPool?: Record<string, unknown>;
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): { principalResult: unknown };
    getResource(options: { file?: string; location?: string; text?: string; type: 'xml' | 'json' | 'text' }): Promise<unknown>;
  };
  export default SaxonJS;
}
