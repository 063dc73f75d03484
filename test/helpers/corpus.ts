// The corpus of realistic documents (test/fixtures/corpus): what real clients send, from metered usage at sub-cent
// rates to every major script and hostile text. Each file is a request as the CLI reads it ({request: {headers,
// body}}) with `about` and the page count a reader would expect (`pages`: [fewest, most]).
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../../server/config';
import type { DocumentPipeline } from '../../server/pipeline';
import { languagePreferences } from '../../server/http/accept-language';

export const CORPUS_DIR = path.join(projectRoot(), 'test', 'fixtures', 'corpus');

export interface CorpusDocument {
  name: string;
  about: string;
  pages: [number, number];
  acceptLanguage?: string;
  body: Record<string, unknown>;
}

export function corpus(): CorpusDocument[] {
  return fs
    .readdirSync(CORPUS_DIR)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((file) => {
      const parsed = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, file), 'utf8')) as {
        about: string;
        pages?: [number, number];
        request: { headers?: Record<string, string>; body: Record<string, unknown> };
      };
      const headers = Object.fromEntries(Object.entries(parsed.request.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v]));
      return {
        name: file.replace(/\.json$/, ''),
        about: parsed.about,
        pages: parsed.pages ?? [1, 1],
        acceptLanguage: headers['accept-language'],
        body: parsed.request.body,
      };
    });
}

/** The HTML and PDF of a corpus document in a theme, through the service's own pipeline. */
export async function renderCorpus(
  pipeline: DocumentPipeline,
  doc: CorpusDocument,
  theme: string,
): Promise<{ html: string; pdf: Uint8Array }> {
  const prepared = pipeline.prepare({ ...doc.body, theme }, pipeline.locale(languagePreferences(doc.acceptLanguage)));
  const { pdf, html } = await pipeline.renderPdf(prepared);
  return { html: html.html, pdf };
}
