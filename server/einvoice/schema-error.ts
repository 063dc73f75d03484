// Our own e-invoice (UBL, CII, Factur-X's CII) failing its XSD: a defect of ours, never the client's; answered as an
// internal error, the XSD's messages going to the log.

/** Raised when an e-invoice we made fails its XSD. */
export class EInvoiceSchemaError extends Error {
  constructor(
    readonly schema: string,
    readonly xsdErrors: string[],
  ) {
    // The messages quote the document's text: they stay in xsdErrors, which the log redacts (http/log-redaction.ts).
    super(`the generated ${schema} is not valid against its XSD (${xsdErrors.length} errors)`);
    this.name = 'EInvoiceSchemaError';
  }
}
