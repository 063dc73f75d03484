// One finding of the received-PDF reader's structure checks (PDF/A-3, Factur-X): a stable rule id, how bad it is and
// what was found, with where in the file when it is one object. Only the type and its two makers: the checks
// themselves are in pdfa-*.ts and facturx-*.ts.

export interface Check {
  /** A stable id: PDFA3-… for PDF/A-3 requirements, FX-… for Factur-X / ZUGFeRD ones, PDF-… for the file itself. */
  rule: string;
  /** fatal: the file breaks the requirement; warning: it is allowed but not as the specification advises. */
  severity: 'fatal' | 'warning';
  message: string;
  /** An object of the file ("12 0 obj"), or a part of it ("XMP", "trailer"). */
  location?: string;
}

export const fatal = (rule: string, message: string, location?: string): Check =>
  location === undefined ? { rule, severity: 'fatal', message } : { rule, severity: 'fatal', message, location };

export const warning = (rule: string, message: string, location?: string): Check =>
  location === undefined ? { rule, severity: 'warning', message } : { rule, severity: 'warning', message, location };
