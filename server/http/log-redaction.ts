// What the log may say of an error: its kind, where it was raised and how many problems it had, never what a client
// sent. A defect's message can quote a client's text (an XSD message quotes the element's value, a parser names the
// entity `&euro;` of a note), so quoted text is replaced by its length.
// Must not decide statuses or what the client is told (errors-to-http.ts and error-catalogue.ts do).

/** `'…'` and `"…"` quotes; `'{namespace}Element'` names among them are the schema's own words. */
const QUOTED = /'[^']*'|"[^"]*"/g;

/** A message with every quoted text replaced by its length: `The value '(7 characters)' is not …`. */
export function redactQuotes(message: string): string {
  return message.replace(QUOTED, (q) => (q.startsWith("'{") ? q : `${q[0]}(${q.length - 2} characters)${q[0]}`));
}

/** An unexpected error as the log may carry it: name, redacted message, stack frames, and an XSD's redacted
 * messages (at most 5, and their count). */
export function errorForLog(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const frames = (err.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const out: Record<string, unknown> = { type: err.name, message: redactQuotes(err.message), stack: frames.join('\n') };
  const xsdErrors = (err as { xsdErrors?: unknown }).xsdErrors;
  if (Array.isArray(xsdErrors)) {
    out.xsdErrorCount = xsdErrors.length;
    out.xsdErrors = xsdErrors.slice(0, 5).map((e) => redactQuotes(String(e)));
  }
  return out;
}
