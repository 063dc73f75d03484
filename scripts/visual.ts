// npm run visual:update — renders every example type × theme and writes the PNG baselines of the visual tests
// (test/visual/baselines). Run it after an intended change to a template, a theme or a font, and commit the images.
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig, projectRoot } from '../server/config';
import { DOCUMENT_TYPES } from '../server/documents/model';
import { BrowserPool } from '../server/pdf/browser-pool';
import { DocumentPipeline, loadAssets } from '../server/pipeline';
import { BASELINES, pdfToPng } from '../test/helpers/visual';

(async () => {
  const config = loadConfig({ ...process.env, NODE_ENV: 'test' });
  const pool = new BrowserPool({ executablePath: config.chromiumPath, sandbox: config.chromiumSandbox, concurrency: 2, queueLimit: 100, timeoutMs: 60000, maxRendersPerBrowser: 0 });
  await pool.start();
  const pipeline = new DocumentPipeline(loadAssets(projectRoot(), config.limits), pool, undefined, config);
  fs.mkdirSync(BASELINES, { recursive: true });
  try {
    for (const type of DOCUMENT_TYPES) {
      for (const theme of pipeline.assets.html.themes) {
        const request = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', `${type}.json`), 'utf8'));
        const { pdf } = await pipeline.renderPdf(pipeline.prepare({ ...request, theme }, pipeline.locale('en-US')));
        const file = path.join(BASELINES, `${type}-${theme}.png`);
        fs.writeFileSync(file, pdfToPng(pdf));
        console.log(`${path.relative(projectRoot(), file)}`);
      }
    }
  } finally {
    await pool.close();
  }
})();
