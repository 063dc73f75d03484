// Our own UBL failing the XSD: a defect of ours, never the client's; answered as an internal error, the XSD's
// messages going to the log.
/** Raised when our own UBL fails the XSD. */
export class UblSchemaError extends Error {
  constructor(readonly xsdErrors: string[]) {
    super(`generated UBL is not valid against the UBL 2.1 XSD: ${xsdErrors.slice(0, 5).join(' | ')}`);
    this.name = 'UblSchemaError';
  }
}
