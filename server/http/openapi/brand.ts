// GET and PUT /brand in the OpenAPI description: the account's brand (schemas/brand.json as the component Brand),
// with an example, and their answers. Must not describe other operations.
import { errorResponses } from './responses';
import type { Node } from './schemas';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** GET and PUT /brand: the account's brand, applied to every document made with its keys. */
export function brandOperations(): Node {
  const example = {
    theme: 'modern',
    accent_color: '#0e7490',
    text_color: '#1f2937',
    font: 'Arimo',
    logo: 'https://example.com/logo.png',
    footer: 'Ocean Ltd · Registered in Cardiff 01234567\nDirectors: A. Jones, B. Smith · VAT GB123456789',
    language: 'en-GB',
    page_size: 'a4',
  };
  const brand = { 'application/json': { schema: ref('Brand') } };
  return {
    get: {
      operationId: 'getBrand',
      summary: "The account's brand, as set (`{}` when none)",
      tags: ['brand'],
      responses: { 200: { description: 'The brand', content: brand }, ...errorResponses([401, 403, 429, 503]) },
    },
    put: {
      operationId: 'putBrand',
      summary: "Sets the account's brand (the whole of it; `{}` clears it)",
      description:
        'Every document made with the account’s keys uses the brand unless its request says otherwise: its theme, logo, ' +
        'footer and paper where the request sends none, its language when the request sends no Accept-Language, its ' +
        'accent and text colours and its font always. Colours need a WCAG contrast of 4.5:1 with white. The logo is fetched ' +
        'and checked once, here, and kept as the account’s own copy (the answer has it as a data: URI). Counts no document.',
      tags: ['brand'],
      requestBody: { required: true, content: { 'application/json': { schema: ref('Brand'), examples: { brand: { value: example } } } } },
      responses: { 200: { description: 'The brand as stored', content: brand }, ...errorResponses([400, 401, 403, 413, 415, 429, 503]) },
    },
  };
}
