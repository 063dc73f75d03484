// Renders the example requests (examples/<type>.json) through the same pipeline as the service, without HTTP,
// to PDFs and PNG page images (pdftoppm), and prints each render's page count.
// Usage: npm run render-fixtures -- OUT_DIR [type[/theme] …]   (default: every type in every theme)
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { projectRoot } from '../server/config';
import { DOCUMENT_TYPES } from '../server/documents/model';
import { openLocalPipeline } from '../server/local-pipeline';

(async () => {
  const [out = 'fixture-renders', ...wanted] = process.argv.slice(2);
  const local = await openLocalPipeline();
  const { pipeline } = local;
  fs.mkdirSync(out, { recursive: true });
  const themes = pipeline.assets.html.themes;
  const jobs = wanted.length ? wanted : DOCUMENT_TYPES.flatMap((t) => themes.map((theme) => `${t}/${theme}`));
  try {
    for (const job of jobs) {
      const [type, theme = themes[0]] = job.split('/'); // the default theme comes first
      const request = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', `${type}.json`), 'utf8'));
      const prepared = pipeline.prepare({ ...request, theme }, pipeline.locale(process.env.LANG_TAG ? [process.env.LANG_TAG] : []));
      const { pdf } = await pipeline.renderPdf(prepared);
      const base = path.join(out, `${type}-${theme}`);
      fs.writeFileSync(`${base}.pdf`, pdf);
      execFileSync('pdftoppm', ['-png', '-r', process.env.DPI ?? '80', `${base}.pdf`, base]);
      const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync('pdfinfo', [`${base}.pdf`]).toString())?.[1]);
      console.log(`${type}/${theme}: ${pages} page${pages === 1 ? '' : 's'}`);
    }
  } finally {
    await local.close();
  }
})();
