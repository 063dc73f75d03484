// XRechnung's early-payment discount lines in the payment terms (BT-20): `#SKONTO#TAGE=7#PROZENT=2.00#`, one a line,
// the block ending with a line break (BR-DE-18). Readers trim texts; the writers give the block its line break back
// here, so that a received XRechnung invoice converted to the other syntax still passes its rules. No XML.

/** A Skonto line as BR-DE-18 reads it (with an optional BASISBETRAG segment). */
const SKONTO_LINE = /#SKONTO#TAGE=\d+#PROZENT=\d+\.\d{2}#(?:BASISBETRAG=-?\d+(?:\.\d{1,2})?#)?$/;

/** The payment terms as written: ending with a line break after a closing Skonto line, as they were sent. */
export function termsText(terms: string): string {
  return SKONTO_LINE.test(terms) ? `${terms}\n` : terms;
}
