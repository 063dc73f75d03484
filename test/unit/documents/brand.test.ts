// An account's brand (documents/brand.ts): WCAG contrast ratios against known values, the refusals of hostile values
// (each naming its field, all at once), the font and language rules, and how a brand lies under a request (the
// request's own fields win).
import { expect } from 'chai';
import { type Assets } from '../../../server/assets';
import { contrastRatio, underBrand, validateBrand, type Brand } from '../../../server/documents/brand';
import { refusalOf } from '../../helpers/money';
import { projectAssets } from '../../helpers/project-assets';

describe('brand (documents/brand.ts)', function () {
  let assets: Assets;
  before(function () {
    assets = projectAssets();
  });
  const check = (body: unknown) =>
    validateBrand(assets.schemas, body as Record<string, unknown>, {
      fonts: assets.html.latinFamilies,
      languages: assets.catalogues.languages,
    });

  it('WCAG contrast: 21:1 black on white, 4.54:1 for #767676, 4.48:1 for #777777', function () {
    expect(contrastRatio('#000000', '#ffffff')).to.equal(21);
    expect(contrastRatio('#767676', '#ffffff')).to.be.closeTo(4.54, 0.01);
    expect(contrastRatio('#ffffff', '#777777')).to.be.closeTo(4.48, 0.01);
  });

  it('keeps a sound brand, colours in lower case and the font by its own name', function () {
    const brand = check({
      theme: 'modern',
      accent_color: '#0E7490',
      text_color: '#1F2937',
      font: 'arimo',
      language: 'de-CH',
      page_size: 'a4',
      footer: 'Ocean Ltd',
    });
    expect(brand).to.deep.equal({
      theme: 'modern',
      accent_color: '#0e7490',
      text_color: '#1f2937',
      font: 'Arimo',
      language: 'de-CH',
      page_size: 'a4',
      footer: 'Ocean Ltd',
    });
    expect(assets.html.latinFamilies).to.deep.equal(['Noto Sans', 'DejaVu Sans', 'Arimo']);
  });

  it('refuses hostile values, each naming its field, all at once', function () {
    const fields = (body: unknown) => refusalOf(() => check(body)).map((p) => p.field);
    expect(
      fields({
        accent_color: '#ffff00', // 1.07:1 with white
        text_color: '#fff;} body { display: none',
        font: 'Comic Sans MS',
        theme: '../../etc/passwd',
        language: 'klingon',
        page_size: 'a3',
        footer: 'line\n'.repeat(7),
        logo: 'x'.repeat(2_800_001),
        script: '<script>',
      }).sort(),
    ).to.deep.equal(['accent_color', 'font', 'footer', 'language', 'logo', 'page_size', 'script', 'text_color', 'theme'].sort());
    const low = refusalOf(() => check({ text_color: '#999999' }));
    expect(low).to.deep.equal([
      {
        field: 'text_color',
        message:
          "text_color #999999 has a contrast of 2.85:1 with white, below WCAG's 4.5:1: the text would be hard to read; choose a darker colour",
      },
    ]);
    expect(() => check([])).to.throw('JSON object');
  });

  it("lies under a request: the brand's theme, logo, footer and paper where the request sends none", function () {
    const brand: Brand = { theme: 'modern', footer: 'Ocean Ltd', page_size: 'a4', logo: 'data:image/png;base64,AA' };
    expect(underBrand({ from: 'A', theme: 'slate', footer: '' }, brand)).to.deep.equal({
      from: 'A',
      theme: 'slate',
      footer: 'Ocean Ltd',
      page_size: 'a4',
      logo: 'data:image/png;base64,AA',
    });
    expect(underBrand({ from: 'A' }, undefined)).to.deep.equal({ from: 'A' });
  });
});
