// A status about a received invoice of a French seller to a French buyer, both with a directory address (scheme
// 0225): the input the CDAR writer's tests (unit and integration) start from.
import { STATUS_CODES, type LifecycleStatus, type StatusInput } from '../../server/einvoice/cdar/build';

export function cdarInput(status: LifecycleStatus, over: Partial<StatusInput> = {}): StatusInput {
  return {
    status,
    id: `CDV-F2026-0042-${STATUS_CODES[status]}`,
    issuedAt: new Date('2026-09-15T08:30:00Z'),
    invoice: {
      number: 'F2026-0042',
      issueDate: '2026-09-01',
      typeCode: '380',
      currency: 'EUR',
      seller: { name: 'Menuiserie Dupont & Fils SARL', siren: '123456789', endpoint: { scheme: '0225', id: '123456789_FACTURES' } },
      buyer: { name: 'Boulangerie Martin SAS', siren: '987654321', endpoint: { scheme: '0225', id: '987654321' } },
    },
    ...over,
  };
}
