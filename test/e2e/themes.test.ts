// A theme is a folder dropped into themes/ (render/themes.ts): copied into a copy of the project's data files, with a
// token changed and a name of its own, it is offered everywhere with no code edited: the request schema (a 400 lists
// it), the OpenAPI description's enum, the studio's list with its manifest, and a render in its colours with the
// header partial of the theme it was copied from; its preferred paper is the default. The service's own themes are the
// folders' list, in the tests too (test/helpers/themes.ts).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { copyProjectData, post, postOk, startTestService, type TestService } from '../helpers/service';
import { THEMES } from '../helpers/themes';

/** The RGB of the pixel at (x, y) points of page 1, rendered at 72 dpi. */
function rgbAt(pdf: Buffer, x: number, y: number): [number, number, number] {
  const ppm = execFileSync('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-x', String(x), '-y', String(y), '-W', '1', '-H', '1', '-'], {
    input: pdf,
  });
  const data = ppm.subarray(ppm.length - 3);
  return [data[0]!, data[1]!, data[2]!];
}

describe('themes as folders', function () {
  this.timeout(120000);
  let service: TestService;
  before(async function () {
    const root = copyProjectData();
    const ocean = path.join(root, 'themes', 'ocean');
    fs.cpSync(path.join(root, 'themes', 'modern'), ocean, { recursive: true });
    fs.writeFileSync(
      path.join(ocean, 'theme.json'),
      JSON.stringify({ name: 'Ocean', description: 'Modern in teal.', page_size: 'letter' }),
    );
    const css = path.join(ocean, 'theme.css');
    fs.writeFileSync(css, fs.readFileSync(css, 'utf8').replace('--color-band-bg: #312e81;', '--color-band-bg: #0e7490;'));
    service = await startTestService({ STUDIO: 'true' }, { root });
  });
  after(async function () {
    await service?.close();
  });

  it("the project's themes are its folders, the default first, and include a third with its own header", function () {
    expect(THEMES).to.deep.equal(['classic', 'modern', 'slate']);
    expect(fs.existsSync(path.join(__dirname, '..', '..', 'themes', 'modern', 'partials', 'header.hbs'))).to.equal(true);
  });

  it('a copied folder is a theme: rendered in its colours, with the header of the theme it came from', async function () {
    const body = { from: 'Acme', to: 'Client', number: 'T-1', items: [{ name: 'Item', unit_cost: 10 }] };
    const pdf = await postOk(service, { ...body, theme: 'ocean' });
    // The band of modern's header partial, right of the title, in the changed token; classic has no band there.
    expect(rgbAt(pdf, 400, 48)).to.deep.equal([14, 116, 144]);
    const modern = await postOk(service, { ...body, theme: 'modern' });
    expect(rgbAt(modern, 400, 48)).to.deep.equal([49, 46, 129]);
    const classic = await postOk(service, { ...body, theme: 'classic' });
    expect(rgbAt(classic, 400, 48)).to.deep.equal([255, 255, 255]);
  });

  it('the schema offers it (a 400 lists it), and so do the OpenAPI description and the studio', async function () {
    const res = await post(service, { from: 'A', to: 'B', theme: 'nope', items: [{ name: 'x' }] });
    expect(res.status).to.equal(400);
    const { details } = (await res.json()) as { details: { field: string; message: string }[] };
    expect(details).to.deep.equal([{ field: 'theme', message: 'theme must be one of "classic", "modern", "ocean", "slate"' }]);
    const openapi = (await (await fetch(`${service.url}/openapi.json`)).json()) as Record<string, unknown>;
    const enums = JSON.stringify(openapi).match(/"enum":\["classic","modern","ocean","slate"\]/g) ?? [];
    expect(enums.length).to.be.greaterThan(0);
    const meta = (await (await fetch(`${service.url}/studio/api/meta`)).json()) as {
      themes: string[];
      themeInfo: { id: string; name: string }[];
    };
    expect(meta.themes).to.deep.equal(['classic', 'modern', 'ocean', 'slate']);
    expect(meta.themeInfo.find((t) => t.id === 'ocean')).to.deep.include({ name: 'Ocean', pageSize: 'letter' });
  });

  it("a theme's preferred paper is the default: modern prints on A4 unless the request says letter", async function () {
    const body = { from: 'A', to: 'B', items: [{ name: 'x', unit_cost: 1 }] };
    const size = (pdf: Buffer) =>
      execFileSync('pdfinfo', ['-'], { input: pdf })
        .toString()
        .match(/Page size:\s+([\d.]+ x [\d.]+)/)![1];
    expect(size(await postOk(service, { ...body, theme: 'modern' }))).to.match(/^59\d\.\d+ x 84\d\.\d+$/); // A4 (Chromium rounds it)
    expect(size(await postOk(service, { ...body, theme: 'modern', page_size: 'letter' }))).to.equal('612 x 792');
    expect(size(await postOk(service, { ...body, theme: 'ocean' }))).to.equal('612 x 792');
  });
});
