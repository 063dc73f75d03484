// npm run visual:update — renders every example type × theme and every corpus document × theme and writes the PNG
// baselines of the visual tests (test/visual/baselines, and its corpus/ folder). Run it after an intended change to a
// template, a theme or a font, look at the images, and commit them.
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config';
import { DOCUMENT_TYPES } from '../server/documents/model';
import { openLocalPipeline } from '../server/local-pipeline';
import { corpus, renderCorpus } from '../test/helpers/corpus';
import { BASELINES, pdfToPng } from '../test/helpers/visual';

(async () => {
  const local = await openLocalPipeline();
  const { pipeline } = local;
  fs.mkdirSync(BASELINES, { recursive: true });
  try {
    for (const type of DOCUMENT_TYPES) {
      for (const theme of pipeline.assets.html.themes) {
        const request = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', `${type}.json`), 'utf8'));
        const { pdf } = await pipeline.renderPdf(pipeline.prepare({ ...request, theme }, pipeline.locale(['en-US'])));
        const file = path.join(BASELINES, `${type}-${theme}.png`);
        fs.writeFileSync(file, pdfToPng(pdf));
        console.log(`${path.relative(projectRoot(), file)}`);
      }
    }
    fs.mkdirSync(path.join(BASELINES, 'corpus'), { recursive: true });
    for (const doc of corpus()) {
      for (const theme of pipeline.assets.html.themes) {
        const { pdf } = await renderCorpus(pipeline, doc, theme);
        const file = path.join(BASELINES, 'corpus', `${doc.name}-${theme}.png`);
        fs.writeFileSync(file, pdfToPng(pdf));
        console.log(`${path.relative(projectRoot(), file)}`);
      }
    }
  } finally {
    await local.close();
  }
})();
