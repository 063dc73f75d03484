// Visual regression tests: every example type × theme against its committed baseline (see test/helpers/visual.ts),
// and proof that a changed theme colour fails with a diff image.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { projectRoot } from '../../server/config';
import { DOCUMENT_TYPES } from '../../server/documents/model';
import { loadAssets } from '../../server/assets';
import { DocumentPipeline } from '../../server/pipeline';
import { compareWithBaseline, pdfToPng } from '../helpers/visual';
import { copyProjectData, sharedService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

const example = (type: string) =>
  JSON.parse(fs.readFileSync(path.join(projectRoot(), 'examples', `${type}.json`), 'utf8')) as Record<string, unknown>;

async function render(pipeline: DocumentPipeline, type: string, theme: string): Promise<Buffer> {
  const { pdf } = await pipeline.renderPdf(pipeline.prepare({ ...example(type), theme }, pipeline.locale(['en-US'])));
  return pdfToPng(pdf);
}

describe('visual regression', function () {
  this.timeout(120000);
  let service: TestService;
  const summary: string[] = [];
  before(async function () {
    service = await sharedService();
  });
  after(function () {
    if (summary.length) console.log(`      visual: ${summary.length} renders compared; largest difference ${summary.sort().at(-1)}`);
  });

  for (const type of DOCUMENT_TYPES) {
    for (const theme of THEMES) {
      it(`${type} / ${theme} matches its baseline`, async function () {
        const result = compareWithBaseline(`${type}-${theme}`, await render(service.pipeline, type, theme));
        summary.push(`${(result.ratio * 100).toFixed(3).padStart(7)} % (${type}/${theme})`);
        expect(
          result.passed,
          `${result.differing} pixels differ (${(result.ratio * 100).toFixed(2)} %); diff: ${result.diffFile}`,
        ).to.equal(true);
      });
    }
  }

  it('a changed theme colour fails, with a diff image', async function () {
    // A copy of the project's data files with one slate token changed, rendered by the same browser.
    const root = copyProjectData();
    const css = path.join(root, 'themes', 'slate', 'theme.css');
    fs.writeFileSync(css, fs.readFileSync(css, 'utf8').replace('--color-bar-bg: #334155;', '--color-bar-bg: #b91c1c;'));
    const changed = new DocumentPipeline(loadAssets(root, service.config.limits), service.pdf, undefined, service.config);
    const result = compareWithBaseline('invoice-slate', await render(changed, 'invoice', 'slate'));
    expect(result.passed).to.equal(false);
    expect(result.diffFile).to.be.a('string');
    expect(fs.existsSync(result.diffFile!)).to.equal(true);
    expect(result.ratio).to.be.greaterThan(0.005);
  });
});
