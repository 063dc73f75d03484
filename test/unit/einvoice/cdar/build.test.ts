// The lifecycle status message's writer (server/einvoice/cdar/build.ts) on its own: who sends each status (the buyer,
// but the seller for "paid"), the status and reason codes where the message carries them, the text escaped, and the
// last guard's refusals of what the rules would reject. That every message passes the CDAR XSD and the official
// BR-FR-CDV rules is test/integration/einvoice/cdar/build.test.ts's.
import { expect } from 'chai';
import { REASON_CODES, STATUS_CODES, writeCdar, type LifecycleStatus, type StatusInput } from '../../../../server/einvoice/cdar/build';
import { cdarInput } from '../../../helpers/cdar-input';

/** The shared input, with a seller whose name needs escaping. */
const input = (status: LifecycleStatus, over: Partial<StatusInput> = {}): StatusInput => {
  const base = cdarInput(status, over);
  return {
    ...base,
    id: `CDV-1-${STATUS_CODES[status]}`,
    invoice: { ...base.invoice, seller: { ...base.invoice.seller, name: 'Menuiserie <Dupont> & Fils' } },
  };
};

describe('CDAR status messages (writer)', function () {
  it('writes each status with its code, the buyer as sender, the seller for "paid"', function () {
    for (const status of Object.keys(STATUS_CODES) as LifecycleStatus[]) {
      const reason = REASON_CODES[status] ? { code: REASON_CODES[status][0]! } : undefined;
      const amount = status === 'paid' ? { value: '1200.00', vatRate: '20' } : undefined;
      const xml = writeCdar(input(status, { reason, amount }));
      expect(xml.startsWith('<?xml version="1.0" encoding="UTF-8"?>'), status).to.equal(true);
      expect(xml, status).to.contain(`>${STATUS_CODES[status]}<`);
      const sender = xml.indexOf('SenderTradeParty');
      expect(sender, status).to.be.above(0);
      const senderName = xml.slice(sender, xml.indexOf('</', sender + 200));
      expect(senderName, status).to.contain(status === 'paid' ? 'Menuiserie' : 'Boulangerie');
      if (reason) expect(xml, status).to.contain(`>${reason.code}<`);
      if (amount) expect(xml, status).to.contain('>1200.00<');
    }
  });

  it('escapes the parties’ names and the reason text', function () {
    const xml = writeCdar(input('refused', { reason: { code: 'DOUBLON', text: 'déjà reçue <2> & payée' } }));
    expect(xml).to.contain('Menuiserie &lt;Dupont&gt; &amp; Fils');
    expect(xml).to.contain('déjà reçue &lt;2&gt; &amp; payée');
    expect(xml).to.contain('>CDV-1-210<');
  });

  it('refuses what the rules would reject: a reason missing, of the wrong list or for a status without one, a paid amount missing or malformed', function () {
    expect(() => writeCdar(input('refused'))).to.throw(/reason/);
    expect(() => writeCdar(input('refused', { reason: { code: 'LIVR_INCOMP' } }))).to.throw(/reason/);
    expect(() => writeCdar(input('approved', { reason: { code: 'DOUBLON' } }))).to.throw(/reason/);
    expect(() => writeCdar(input('paid'))).to.throw(/amount/);
    expect(() => writeCdar(input('paid', { amount: { value: '12.5' } }))).to.throw(/amount/);
  });
});
