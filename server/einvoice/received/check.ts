// Checking a received e-invoice (POST /validate, and before a received document is shown or converted): the XML is
// read safely (parseXmlYielding: a DTD is refused before anything else sees the text, and a long document never
// holds the event loop), recognised (UBL Invoice or CreditNote,
// CII CrossIndustryInvoice; anything else is unsupported_document), its specification read from BT-24
// (cbc:CustomizationID, ram:GuidelineSpecifiedDocumentContextParameter/ram:ID) and looked up in profiles.ts's table,
// which says which XSD and which official rule sets apply; then the XSD, then the rule sets (in the rules pool, in
// parallel when it has several workers), and the report. A document that breaks rules is a report with
// `valid: false`, never an error. No HTTP here.
//
// Decisions:
// - A document that fails its XSD is not run through the rules (as KoSIT's validator does): the rules assume the
//   structure the XSD guarantees, and on a broken structure they report failures that are consequences, not causes,
//   or miss the real ones. The report lists the rule sets with `skipped` saying why.
// - CII document type: ExchangedDocument/TypeCode in UNTDID 1001's credit note codes (81, 83, 261, 262, 296, 308,
//   381, 396, 420, 458, 532: the codes of the EN 16931 code list whose name is a credit note) is a credit note; any
//   other code, an invoice (380, 384 corrected, 389 self-billed, 326 partial, 751 …). UBL: by the root element alone
//   (EN 16931 binds BT-3 to the root's type code, and the root decides the syntax of the whole document).
// - An unknown BT-24 (another CIUS, an older XRechnung, ZUGFeRD 1's comfort profile, none at all) is reported as it is
//   (`profile: null`) and checked with its syntax's XSD and EN 16931 rules.
import type { Profile } from '../model';
import { FRENCH_ADDRESS_SCHEME, isFrenchBillingFramework } from '../france';
import { PROFILES, UNKNOWN_SPECIFICATION_RULES, receivedProfile } from '../profiles';
import { RULE_SETS, type RuleSetId } from '../rules/rule-sets';
import type { RulesPool, SvrlFailure } from '../rules/rules-pool';
import { WorkerPoolError } from '../../workers/pool';
import { shareText } from '../shared-text';
import { DEFAULT_XML_LIMITS, parseXmlYielding, type XmlLimits, type XmlNode } from '../xml-tree';
import type { XsdProblem, XsdRoot, XsdValidator } from '../xsd-validator';
import { errors } from '../../errors';
import { NS as CII_NS } from '../cii/cii-xml';
import { NS as UBL_NS } from '../ubl/ubl-xml';

export type Syntax = 'ubl' | 'cii';
export type DocumentType = 'invoice' | 'credit_note';
export type Severity = 'fatal' | 'warning' | 'information';

/** One broken rule (or XSD error) of the report. */
export interface Finding {
  /** The official rule id (`BR-CO-16`, `BR-DE-15`, `PEPPOL-EN16931-R001`), or `XSD`. */
  rule: string;
  severity: Severity;
  /** The rule set's own text. */
  message: string;
  /** The XPath the rule names (SVRL `location`; for an XSD error, libxml2's path of the element). */
  location: string;
  /** The name of the rule set, as in `rule_sets`. */
  rule_set: string;
  /** XSD errors: where in the text (1-based). */
  line?: number;
  column?: number;
  /** The assertion's own id when the rule set numbers its assertions apart from the rule they check (Factur-X:
   * `FX-SCH-A-000122` checks BR-CO-16, which is `rule`). */
  assertion?: string;
}

export interface RuleSetReport {
  name: string;
  version: string;
  /** Fatal failures (errors). */
  fatal: number;
  /** Warnings and information. */
  warnings: number;
  /** Present when the rule set was not run, saying why (the document failed its XSD; no compiled rules). */
  skipped?: string;
}

/** The /validate report. */
export interface ValidationReport {
  valid: boolean;
  syntax: Syntax;
  document_type: DocumentType;
  /** BT-24 as the document states it (trimmed); null when it has none. */
  specification: string | null;
  /** The row of profiles.ts it names; null for any other specification. */
  profile: Profile | null;
  /** Issued under France's reform (Recognised.french): the French rules ran. */
  french: boolean;
  /** The XSD first, then each rule set, in the order they apply. */
  rule_sets: RuleSetReport[];
  errors: Finding[];
  warnings: Finding[];
}

/** What the caller needs to go on with the document (read it into the model: ubl/read.ts, cii/read.ts). */
export interface CheckedDocument {
  report: ValidationReport;
  /** The parsed document element. */
  root: XmlNode;
  /** The text that was checked (without a byte order mark; its XML declaration naming UTF-8). */
  xml: string;
}

export interface CheckOptions {
  xsd: XsdValidator;
  rules: RulesPool;
  /** The CII came out of a Factur-X / ZUGFeRD PDF: its Factur-X profile's XSD and rules apply (as they do to the
   * Factur-X profiles' own identifiers sent as plain XML). */
  fromFacturXPdf?: boolean;
  /** Stops the check (the client left): queued rule sets are dropped, running ones have their worker replaced. */
  signal?: AbortSignal;
  limits?: XmlLimits;
}

// The namespaces the writers use (ubl-xml.ts, cii-xml.ts).
const UBL_INVOICE = UBL_NS.Invoice;
const UBL_CREDIT_NOTE = UBL_NS.CreditNote;
const UBL_CBC = UBL_NS.cbc;
const UBL_CAC = UBL_NS.cac;
const CII_RSM = CII_NS.rsm;
const CII_RAM = CII_NS.ram;

/** UNTDID 1001's credit note codes among those EN 16931 allows (BR-CL-01). */
export const CREDIT_NOTE_TYPE_CODES: ReadonlySet<string> = new Set([
  '81',
  '83',
  '261',
  '262',
  '296',
  '308',
  '381',
  '396',
  '420',
  '458',
  '532',
]);

/** The XSDs, as the report names them. */
const XSD_NAMES: Record<XsdRoot, { name: string; version: string }> = {
  Invoice: { name: 'UBL Invoice XSD', version: '2.1' },
  CreditNote: { name: 'UBL CreditNote XSD', version: '2.1' },
  CrossIndustryInvoice: { name: 'CII XSD', version: 'D16B' },
  'FacturX-MINIMUM': { name: 'Factur-X MINIMUM XSD', version: '1.09' },
  'FacturX-BASICWL': { name: 'Factur-X BASIC WL XSD', version: '1.09' },
  'FacturX-BASIC': { name: 'Factur-X BASIC XSD', version: '1.09' },
  'FacturX-EN16931': { name: 'Factur-X EN 16931 XSD', version: '1.09' },
  'FacturX-EXTENDED': { name: 'Factur-X EXTENDED XSD', version: '1.09' },
  'CrossIndustryInvoice-D22B': { name: 'CII XSD', version: 'D22B' },
  CrossDomainAcknowledgementAndResponse: { name: 'CDAR XSD', version: 'D22B' },
};

/** What a received document is, from its parsed tree. */
export interface Recognised {
  syntax: Syntax;
  documentType: DocumentType;
  /** BT-24, trimmed; undefined when absent or empty. */
  specification: string | undefined;
  profile: Profile | null;
  /** Issued under France's reform: its BT-24 names a French profile, its BT-23 is a French billing framework (B1, S1,
   * M1, …), a party's electronic address is in the French directory's scheme (0225), or a note says how the platforms
   * process it (subject code BAR). The French rules (BR-FR) apply whatever its profile. */
  french: boolean;
}

/** Printable and short: a name or namespace from the document, in a message (never a field value). */
const shown = (text: string): string => {
  const clean = text.replace(/[^\x20-\x7e\u00a0-\uffff]/g, '?');
  return clean.length > 100 ? `${clean.slice(0, 100)}…` : clean;
};

/** The document's syntax, type, specification and profile; unsupported_document for anything else. */
export function recognise(root: XmlNode): Recognised {
  const child = (node: XmlNode | undefined, uri: string, name: string) => node?.children.find((c) => c.uri === uri && c.name === name);
  let syntax: Syntax;
  let documentType: DocumentType;
  let specification: string | undefined;
  let businessProcess: string | undefined;
  /** The reform's own marks besides BT-23: an electronic address in the French directory's scheme, a BAR note. */
  let reformMarks: boolean;
  if ((root.name === 'Invoice' && root.uri === UBL_INVOICE) || (root.name === 'CreditNote' && root.uri === UBL_CREDIT_NOTE)) {
    syntax = 'ubl';
    documentType = root.name === 'Invoice' ? 'invoice' : 'credit_note';
    specification = child(root, UBL_CBC, 'CustomizationID')?.text.trim();
    businessProcess = child(root, UBL_CBC, 'ProfileID')?.text;
    const endpoints = ['AccountingSupplierParty', 'AccountingCustomerParty'].map(
      (p) => child(child(child(root, UBL_CAC, p), UBL_CAC, 'Party'), UBL_CBC, 'EndpointID')?.attrs.schemeID,
    );
    const notes = root.children.filter((c) => c.uri === UBL_CBC && c.name === 'Note').map((n) => n.text.trim());
    reformMarks = endpoints.includes(FRENCH_ADDRESS_SCHEME) || notes.some((n) => n.startsWith('#BAR#'));
  } else if (root.name === 'CrossIndustryInvoice' && root.uri === CII_RSM) {
    syntax = 'cii';
    const typeCode = child(child(root, CII_RSM, 'ExchangedDocument'), CII_RAM, 'TypeCode')?.text.trim();
    documentType = typeCode !== undefined && CREDIT_NOTE_TYPE_CODES.has(typeCode) ? 'credit_note' : 'invoice';
    const context = child(root, CII_RSM, 'ExchangedDocumentContext');
    specification = context?.children
      .filter((c) => c.uri === CII_RAM && c.name === 'GuidelineSpecifiedDocumentContextParameter')
      .map((p) => child(p, CII_RAM, 'ID')?.text.trim())
      .find((id) => id);
    businessProcess = child(child(context, CII_RAM, 'BusinessProcessSpecifiedDocumentContextParameter'), CII_RAM, 'ID')?.text;
    const agreement = child(child(root, CII_RSM, 'SupplyChainTradeTransaction'), CII_RAM, 'ApplicableHeaderTradeAgreement');
    const endpoints = ['SellerTradeParty', 'BuyerTradeParty'].map(
      (p) => child(child(child(agreement, CII_RAM, p), CII_RAM, 'URIUniversalCommunication'), CII_RAM, 'URIID')?.attrs.schemeID,
    );
    const notes = (child(root, CII_RSM, 'ExchangedDocument')?.children ?? [])
      .filter((c) => c.uri === CII_RAM && c.name === 'IncludedNote')
      .map((n) => child(n, CII_RAM, 'SubjectCode')?.text.trim());
    reformMarks = endpoints.includes(FRENCH_ADDRESS_SCHEME) || notes.includes('BAR');
  } else {
    throw errors.unsupportedDocument(unsupported(root));
  }
  if (!specification) specification = undefined;
  const named = receivedProfile(specification, syntax) ?? null;
  const french = (named !== null && PROFILES[named].france === true) || isFrenchBillingFramework(businessProcess) || reformMarks;
  // The EN16931 profile of the reform has the norm's own BT-24: its billing framework says it is France's.
  const profile = named === 'en16931' && french ? 'fr' : named;
  return { syntax, documentType, specification, profile, french };
}

function unsupported(root: XmlNode): string {
  if (root.uri.startsWith('urn:oasis:names:specification:ubl:schema:xsd:')) {
    return `a UBL ${shown(root.name)}, not an Invoice or CreditNote`;
  }
  if (root.name === 'CrossIndustryDocument' && root.uri.startsWith('urn:ferd:CrossIndustryDocument:')) {
    return 'a ZUGFeRD 1 CrossIndustryDocument, which predates EN 16931 (ZUGFeRD 2 and Factur-X send a CII CrossIndustryInvoice)';
  }
  const ns = root.uri ? ` in the namespace ${shown(root.uri)}` : ' in no namespace';
  return `an XML document whose root element is ${shown(root.name)}${ns}`;
}

/** Which XSD and rule sets check a document (the table is profiles.ts's). */
export function applicable(
  recognised: Pick<Recognised, 'syntax' | 'documentType' | 'profile'> & { french?: boolean },
  fromFacturXPdf = false,
): { xsd: XsdRoot; ruleSets: RuleSetId[] } {
  const { syntax, documentType, profile } = recognised;
  const row = profile ? PROFILES[profile] : undefined;
  const rows = row?.received[syntax] ?? UNKNOWN_SPECIFICATION_RULES[syntax];
  // An invoice issued under France's reform in any profile (Factur-X BASIC WL, EXTENDED, …) also meets the French rules.
  const frenchRules = FRENCH_RULES[syntax];
  const own = recognised.french && !rows.includes(frenchRules) ? [...rows, frenchRules] : rows;
  if (syntax === 'ubl') return { xsd: documentType === 'invoice' ? 'Invoice' : 'CreditNote', ruleSets: [...own] };
  const facturX = row?.facturX && (row.received.facturXSchemas || fromFacturXPdf) ? row.facturX : undefined;
  return {
    // France's reform names CII D22B: a French CII that is not a Factur-X profile's is checked against it.
    xsd: facturX?.xsd ?? (recognised.french ? 'CrossIndustryInvoice-D22B' : 'CrossIndustryInvoice'),
    ruleSets: [...own, ...(facturX?.rules ? [facturX.rules] : [])],
  };
}

/** The EN 16931 rule set of each syntax. */
const EN16931_RULES: Record<Syntax, RuleSetId> = { ubl: 'en16931-ubl', cii: 'en16931-cii' };

/** The EN 16931 rules an extension the document declares replaces with its own (profiles.ts `overridden`). */
function overriddenRules(recognised: Recognised): ReadonlySet<string> {
  const o = recognised.profile ? PROFILES[recognised.profile].received.overridden : undefined;
  return new Set(o && o.identifier === recognised.specification ? o[recognised.syntax] : []);
}

/** The French rules (BR-FR, Flux 2) of each syntax. */
const FRENCH_RULES: Record<Syntax, RuleSetId> = { ubl: 'br-fr-ubl', cii: 'br-fr-cii' };

/** The text as the XSD and the rules read it: no byte order mark, and an XML declaration that names no other
 * encoding than the UTF-8 it is handed over in (the bytes were decoded by decodeXml already). */
function engineText(xml: string): string {
  const text = xml.charCodeAt(0) === 0xfeff ? xml.slice(1) : xml;
  return text.replace(/^(<\?xml[^>]*?\bencoding\s*=\s*)(["'])[^"']*\2/, '$1$2UTF-8$2');
}

/** A bracketed rule id at the start of a rule's text (`[BR-CO-16]-Amount due …`). */
const TEXT_RULE = /^\[([A-Z][A-Z0-9]*(?:-[A-Z0-9]+)+)\]/;

function finding(f: SvrlFailure, id: RuleSetId): Finding {
  const set = RULE_SETS[id];
  const named = TEXT_RULE.exec(f.text)?.[1];
  const rule = (set.ruleInText || !f.id) && named ? named : f.id;
  const severity: Severity = f.flag === 'warning' || f.flag === 'information' ? f.flag : 'fatal';
  return {
    rule,
    severity,
    message: f.text,
    location: f.location,
    rule_set: set.name,
    ...(rule !== f.id && f.id ? { assertion: f.id } : {}),
  };
}

function xsdFinding(p: XsdProblem, ruleSet: string): Finding {
  return {
    rule: 'XSD',
    severity: 'fatal',
    message: p.wellFormed ? p.message : `not well-formed: ${p.message}`,
    location: p.xpath ?? '',
    rule_set: ruleSet,
    ...(p.line !== undefined ? { line: p.line, column: p.column ?? 1 } : {}),
  };
}

/** One rule set's line of the report and its findings: its failures; not run (the XSD failed); or not finished (a
 * worker's error), which is a fatal finding of its own. */
function ruleSetOutcome(
  id: RuleSetId,
  failures: SvrlFailure[] | Error | undefined,
  rules: RulesPool,
): { report: RuleSetReport; findings: Finding[] } {
  const set = RULE_SETS[id];
  if (failures instanceof Error) {
    // Not finished: the document is not known to be valid, and says so as a fatal finding of its own.
    const why = !(failures instanceof WorkerPoolError)
      ? `stopped on this document with an error of their own (${failures.message.slice(0, 200)})`
      : failures.reason === 'timeout'
        ? `did not finish within ${Math.round(rules.opts.timeoutMs / 1000)} s on this document (RULES_TIMEOUT_MS)`
        : 'could not check this document (it needs more memory than a rule checker may use)';
    return {
      report: { name: set.name, version: set.version, fatal: 1, warnings: 0, skipped: `not finished: it ${why}` },
      findings: [
        {
          rule: 'RULES-INCOMPLETE',
          severity: 'fatal',
          message: `The ${set.name} rules ${why}: the document is not known to pass them.`,
          location: '/',
          rule_set: set.name,
        },
      ],
    };
  }
  if (!failures) {
    const skipped = set.notRun ?? 'not run: the document is not valid against its XSD (the rules assume the structure the XSD checks)';
    return { report: { name: set.name, version: set.version, fatal: 0, warnings: 0, skipped }, findings: [] };
  }
  const found = failures.map((f) => finding(f, id));
  const fatal = found.filter((f) => f.severity === 'fatal').length;
  return { report: { name: set.name, version: set.version, fatal, warnings: found.length - fatal }, findings: found };
}

/**
 * Checks a received e-invoice against its XSD and every official rule set that applies, and reports.
 * Throws malformed_xml (not well-formed, a DTD, beyond `limits`) and unsupported_document (not a UBL Invoice or
 * CreditNote nor a CII CrossIndustryInvoice) as DomainErrors; a WorkerPoolError when the rules could not run (`busy`,
 * `timeout`, `crashed`, `unavailable`, `closed`); `signal`'s reason when it is aborted.
 */
export async function checkReceived(xml: string, opts: CheckOptions): Promise<CheckedDocument> {
  const text = engineText(xml);
  const root = await parseXmlYielding(text, opts.limits ?? DEFAULT_XML_LIMITS);
  const recognised = recognise(root);
  const { xsd, ruleSets } = applicable(recognised, opts.fromFacturXPdf);
  opts.signal?.throwIfAborted();

  const xsdName = XSD_NAMES[xsd];
  // Sent to the XSD and rule workers as shared bytes: a long document is not copied once per worker.
  const shared = shareText(text);
  const xsdChecked = await opts.xsd.validateDetailed(shared, xsd);
  const findings: Finding[] = xsdChecked.problems.map((p) => xsdFinding(p, xsdName.name));
  // A document can have a million XSD problems: the first 100 are listed, one more finding counts the rest.
  const unlisted = xsdChecked.total - findings.length;
  if (unlisted > 0)
    findings.push(
      xsdFinding({ message: `${unlisted} more XSD problem${unlisted === 1 ? '' : 's'} not listed`, wellFormed: true }, xsdName.name),
    );
  const ruleSetsReport: RuleSetReport[] = [{ ...xsdName, fatal: xsdChecked.total, warnings: 0 }];
  const xsdValid = xsdChecked.total === 0;

  const runnable = ruleSets.filter((id) => RULE_SETS[id].file);
  const results = xsdValid ? await runAll(opts.rules, runnable, shared, opts.signal) : new Map<RuleSetId, SvrlFailure[] | Error>();
  const overridden = overriddenRules(recognised);
  for (const id of ruleSets) {
    const result = results.get(id);
    const kept = Array.isArray(result) && id === EN16931_RULES[recognised.syntax] ? result.filter((f) => !overridden.has(f.id)) : result;
    const outcome = ruleSetOutcome(id, kept, opts.rules);
    ruleSetsReport.push(outcome.report);
    findings.push(...outcome.findings);
  }
  const fatal = findings.filter((f) => f.severity === 'fatal');
  const report: ValidationReport = {
    valid: fatal.length === 0,
    syntax: recognised.syntax,
    document_type: recognised.documentType,
    specification: recognised.specification ?? null,
    profile: recognised.profile,
    french: recognised.french,
    rule_sets: ruleSetsReport,
    errors: fatal,
    warnings: findings.filter((f) => f.severity !== 'fatal'),
  };
  return { report, root, xml: text };
}

/** Every rule set on the text, at once (the pool runs as many in parallel as it has workers). A rule set that runs
 * past its deadline or takes its worker down (a document too long or too big for it) is given as its WorkerPoolError,
 * the others going on; any other failure (busy, closed) stops them all: their workers are freed (queued runs dropped,
 * running ones' workers replaced) and the error is thrown. */
async function runAll(
  rules: RulesPool,
  ids: RuleSetId[],
  text: Uint8Array,
  signal: AbortSignal | undefined,
): Promise<Map<RuleSetId, SvrlFailure[] | Error>> {
  const stop = new AbortController();
  const onAbort = () => stop.abort(signal!.reason);
  signal?.addEventListener('abort', onAbort, { once: true });
  // The document's own doing: too long for the deadline, too big for a worker's memory, or an XPath error the
  // rules themselves raise on it (a cardinality their authors did not expect: SaxonJS stops the transform).
  const ownFault = (err: unknown): err is Error =>
    !stop.signal.aborted &&
    err instanceof Error &&
    (err instanceof WorkerPoolError ? err.reason === 'timeout' || err.reason === 'crashed' : true);
  try {
    const results = await Promise.all(
      ids.map((id) =>
        rules.run(id, text, stop.signal).then(
          (failures) => [id, failures as SvrlFailure[] | Error] as const,
          (err: unknown) => {
            if (ownFault(err)) return [id, err as SvrlFailure[] | Error] as const;
            if (!stop.signal.aborted) stop.abort(err);
            throw err;
          },
        ),
      ),
    );
    return new Map(results);
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
}
