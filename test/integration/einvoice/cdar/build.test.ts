// The lifecycle status message of France's reform (server/einvoice/cdar/build.ts, the CDAR "CDV"): for each of the five
// statuses a realistic message is valid under the uncoupled CDAR D22B XSD (xmllint) with 0 fatal findings under the
// FNFE-MPE rules (BR-FR-CDV, compiled in the standards folder), and carries its status code, reason code or collected
// amount where the rules read them. The reason codes allowed per status are exactly those the rules accept; what
// writeCdar refuses (a missing reason, amount, VAT rate, recipient address) is what the rules would reject.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { REASON_CODES, STATUS_CODES, writeCdar, type LifecycleStatus } from '../../../../server/einvoice/cdar/build';
import { rules, STANDARDS_DIR, type Failure } from '../../../helpers/schematron';
import { xmllintErrors } from '../../../helpers/ubl';
import { at, one } from '../../../helpers/xml-path';
import { cdarInput } from '../../../helpers/cdar-input';

const CDAR_DIR = path.join(STANDARDS_DIR, 'france', 'CDAR');
const XSD = path.join(CDAR_DIR, '1xsd-CDAR_D22B_uncoupled', 'CrossDomainAcknowledgementAndResponse_100pD22B.xsd');

const REF = 'rsm:AcknowledgementDocument/ram:ReferenceReferencedDocument';
const DETAIL = `${REF}/ram:SpecifiedDocumentStatus`;
const MEN = `${DETAIL}/ram:SpecifiedDocumentCharacteristic[ram:TypeCode=MEN]`;

const input = cdarInput;

const fatal = (xml: string): Failure[] =>
  rules('brFrCdar')
    .validate(xml)
    .filter((f) => f.flag !== 'warning' && f.flag !== 'information');
const show = (findings: Failure[]): string => findings.map((f) => `${f.id}: ${f.message}`).join('\n');

/** The message is XSD-valid with 0 fatal findings, and has no empty element; what fails is printed. */
function expectValid(xml: string): void {
  const errors = xmllintErrors(xml, XSD);
  expect(errors, `XSD errors:\n${errors.join('\n')}\n${xml}`).to.deep.equal([]);
  const findings = fatal(xml);
  expect(findings, `fatal findings:\n${show(findings)}\n${xml}`).to.deep.equal([]);
  expect(xml, 'an empty element').not.to.match(/<[\w:]+(?:\s[^>]*)?\/>|<([\w:]+)(?:\s[^>]*)?><\/\1>/);
}

/** The parts every status message has: context, the party giving the status and the one it is for, the invoice. */
function expectCommon(xml: string, status: LifecycleStatus, by: 'BY' | 'SE'): void {
  const to = by === 'BY' ? 'SE' : 'BY';
  expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>')).to.equal(true);
  expect(one(xml, 'rsm:ExchangedDocumentContext/ram:BusinessProcessSpecifiedDocumentContextParameter/ram:ID')).to.equal('REGULATED');
  expect(one(xml, 'rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID')).to.equal(
    'urn.cpro.gouv.fr:1p0:CDV:invoice',
  );
  expect(one(xml, 'rsm:ExchangedDocument/ram:ID')).to.equal(`CDV-F2026-0042-${STATUS_CODES[status]}`);
  expect(one(xml, 'rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString')).to.equal('20260915083000');
  expect(one(xml, 'rsm:ExchangedDocument/ram:SenderTradeParty/ram:RoleCode')).to.equal(by);
  expect(at(xml, 'rsm:ExchangedDocument/ram:SenderTradeParty/ram:GlobalID'), 'BR-FR-CDV-CL-09_MDT-113_210B2G').to.deep.equal([]);
  expect(one(xml, 'rsm:ExchangedDocument/ram:IssuerTradeParty/ram:GlobalID')).to.equal(by === 'BY' ? '987654321' : '123456789');
  expect(one(xml, 'rsm:ExchangedDocument/ram:RecipientTradeParty/ram:RoleCode')).to.equal(to);
  expect(one(xml, 'rsm:ExchangedDocument/ram:RecipientTradeParty/ram:URIUniversalCommunication/ram:URIID')).to.equal(
    by === 'BY' ? '123456789_FACTURES' : '987654321',
  );
  expect(one(xml, 'rsm:ExchangedDocument/ram:RecipientTradeParty/ram:URIUniversalCommunication/ram:URIID/@schemeID')).to.equal('0225');
  expect(one(xml, 'rsm:AcknowledgementDocument/ram:TypeCode')).to.equal('23');
  expect(one(xml, `${REF}/ram:IssuerAssignedID`)).to.equal('F2026-0042');
  expect(one(xml, `${REF}/ram:FormattedIssueDateTime/qdt:DateTimeString`)).to.equal('20260901');
  expect(one(xml, `${REF}/ram:IssuerTradeParty/ram:GlobalID`)).to.equal('123456789');
  expect(one(xml, `${REF}/ram:IssuerTradeParty/ram:GlobalID/@schemeID`)).to.equal('0002');
  expect(one(xml, `${REF}/ram:IssuerTradeParty/ram:RoleCode`)).to.equal('SE');
  expect(one(xml, `${REF}/ram:IssuerTradeParty/ram:Name`)).to.equal('Menuiserie Dupont & Fils SARL');
}

describe('CDAR lifecycle status messages (XP Z12-012 CDV)', function () {
  it('received: 204 "Prise en charge" from the buyer, XSD-valid with 0 fatal', function () {
    const xml = writeCdar(input('received'));
    expectValid(xml);
    expectCommon(xml, 'received', 'BY');
    expect(one(xml, `${REF}/ram:ProcessConditionCode`)).to.equal('204');
    expect(at(xml, DETAIL)).to.deep.equal([]);
  });

  it('approved: 205 "Approuvée" from the buyer, XSD-valid with 0 fatal', function () {
    const xml = writeCdar(input('approved'));
    expectValid(xml);
    expectCommon(xml, 'approved', 'BY');
    expect(one(xml, `${REF}/ram:ProcessConditionCode`)).to.equal('205');
    expect(at(xml, DETAIL)).to.deep.equal([]);
  });

  it('refused: 210 "Refusée" from the buyer with its reason code and text, XSD-valid with 0 fatal', function () {
    const xml = writeCdar(
      input('refused', { reason: { code: 'TX_TVA_ERR', text: 'Taux de TVA de 20 % au lieu de 10 % (travaux de rénovation)' } }),
    );
    expectValid(xml);
    expectCommon(xml, 'refused', 'BY');
    expect(one(xml, `${REF}/ram:ProcessConditionCode`)).to.equal('210');
    expect(one(xml, `${DETAIL}/ram:ReasonCode`)).to.equal('TX_TVA_ERR');
    expect(one(xml, `${DETAIL}/ram:Reason`)).to.equal('Taux de TVA de 20 % au lieu de 10 % (travaux de rénovation)');
    expect(one(xml, `${DETAIL}/ram:SequenceNumeric`)).to.equal('1');
  });

  it('disputed: 207 "En litige" from the buyer with its reason code, XSD-valid with 0 fatal', function () {
    const xml = writeCdar(input('disputed', { reason: { code: 'QTE_ERR' } }));
    expectValid(xml);
    expectCommon(xml, 'disputed', 'BY');
    expect(one(xml, `${REF}/ram:ProcessConditionCode`)).to.equal('207');
    expect(one(xml, `${DETAIL}/ram:ReasonCode`)).to.equal('QTE_ERR');
    expect(at(xml, `${DETAIL}/ram:Reason`), 'no text given, none written').to.deep.equal([]);
  });

  it('paid: 212 "Encaissée" from the seller with the amount and VAT rate in a MEN block (BR-FR-CDV-14), XSD-valid with 0 fatal', function () {
    const xml = writeCdar(input('paid', { amount: { value: '1440.00', vatRate: '20' } }));
    expectValid(xml);
    expectCommon(xml, 'paid', 'SE');
    expect(one(xml, `${REF}/ram:ProcessConditionCode`)).to.equal('212');
    expect(one(xml, `${MEN}/ram:ValueAmount`)).to.equal('1440.00');
    expect(one(xml, `${MEN}/ram:ValueAmount/@currencyID`)).to.equal('EUR');
    expect(one(xml, `${MEN}/ram:ValuePercent`)).to.equal('20');
    expect(at(xml, `${DETAIL}/ram:ReasonCode`)).to.deep.equal([]);
  });

  it('the reason codes allowed for refused and disputed are exactly those the rules accept for 210 and 207', function () {
    const xslt = fs.readFileSync(path.join(CDAR_DIR, '2xslt', 'BR-FR-CDV-Schematron-CDAR.xslt'), 'utf8');
    const all = /name="custom:status-reason-codes"[^>]*select="'([^']*)'"/.exec(xslt)?.[1]?.trim().split(/\s+/);
    expect(all, 'the reform list (BR-FR-CDV-CL-09) in the compiled rules').to.have.length.greaterThan(40);
    for (const status of ['refused', 'disputed'] as const) {
      const template = writeCdar(input(status, { reason: { code: REASON_CODES[status]![0]! } }));
      const accepted = all!.filter((code) => {
        const xml = template.replace(/<ram:ReasonCode>[^<]*<\/ram:ReasonCode>/, `<ram:ReasonCode>${code}</ram:ReasonCode>`);
        return fatal(xml).length === 0;
      });
      expect([...REASON_CODES[status]!].sort(), status).to.deep.equal(accepted.sort());
      for (const code of REASON_CODES[status]!)
        expect(one(writeCdar(input(status, { reason: { code } })), `${DETAIL}/ram:ReasonCode`)).to.equal(code);
    }
  });

  it('a refused or disputed status without a reason throws, naming input.reason; so does a code outside its list', function () {
    expect(() => writeCdar(input('refused'))).to.throw(Error, /input\.reason \(MDT-113, BR-FR-CDV-15\) is missing/);
    expect(() => writeCdar(input('refused', { reason: { code: ' ' } }))).to.throw(Error, /input\.reason .* is missing/);
    expect(() => writeCdar(input('disputed'))).to.throw(Error, /input\.reason .* is missing/);
    expect(() => writeCdar(input('refused', { reason: { code: 'AUTRE' } }))).to.throw(Error, /input\.reason\.code is not one of/);
  });

  it('what writeCdar refuses is what the rules reject: no MEN amount or VAT rate, no recipient address, no reason', function () {
    // The throws:
    expect(() => writeCdar(input('paid'))).to.throw(Error, /input\.amount .* is missing/);
    expect(() => writeCdar(input('paid', { amount: { value: '1440.00' } }))).to.throw(Error, /input\.amount\.vatRate .* is missing/);
    const noAddress = input('approved');
    delete noAddress.invoice.seller.endpoint;
    expect(() => writeCdar(noAddress)).to.throw(Error, /input\.invoice\.seller\.endpoint .* is missing/);
    // The rules on the same messages made by hand from valid ones:
    const paid = writeCdar(input('paid', { amount: { value: '1440.00', vatRate: '20' } }));
    const ids = (xml: string): string[] => fatal(xml).map((f) => f.id);
    expect(ids(paid.replace(/<ram:ValuePercent>[^<]*<\/ram:ValuePercent>/, ''))).to.include('BR-FR-CDV-14_MDT-207');
    expect(ids(paid.replace(/<ram:SpecifiedDocumentStatus>[\s\S]*<\/ram:SpecifiedDocumentStatus>/, ''))).to.include('BR-FR-CDV-14_MDT-207');
    const approved = writeCdar(input('approved'));
    expect(
      ids(
        approved.replace(
          /(<ram:RecipientTradeParty>[\s\S]*?)<ram:URIUniversalCommunication>[\s\S]*?<\/ram:URIUniversalCommunication>/,
          '$1',
        ),
      ),
    ).to.include('BR-FR-CDV-08_MDT-73');
    const refused = writeCdar(input('refused', { reason: { code: 'DOUBLON' } }));
    expect(ids(refused.replace(/<ram:SpecifiedDocumentStatus>[\s\S]*<\/ram:SpecifiedDocumentStatus>/, ''))).to.include(
      'BR-FR-CDV-15_MDT-113',
    );
  });
});
