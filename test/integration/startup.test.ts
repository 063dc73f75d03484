// Data files are loaded once at start-up; a missing or broken file stops start-up with every problem listed.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { loadConfig, ConfigError, projectRoot } from '../../server/config';
import { loadAssets, StartupError } from '../../server/assets';
import { copyProjectData } from '../helpers/service';
import { themeIdsIn } from '../../server/documents/theme-ids';
import { acquireRulesPool, RulesLoadError } from '../../server/einvoice/rules/rules-pool';

describe('start-up checks', function () {
  const limits = loadConfig({}).limits;

  it('loads the project as it is', function () {
    const assets = loadAssets(projectRoot(), limits);
    expect(assets.catalogues.languages).to.include('en');
    expect(assets.html.themes).to.deep.equal(themeIdsIn(path.join(projectRoot(), 'themes')));
    expect(assets.html.themes[0]).to.equal('classic');
  });

  it('lists every problem of every theme at once', function () {
    const root = copyProjectData();
    const themes = path.join(root, 'themes');
    const make = (id: string, css: string, files: Record<string, string> = {}) => {
      fs.mkdirSync(path.join(themes, id, 'partials'), { recursive: true });
      fs.writeFileSync(path.join(themes, id, 'theme.css'), css);
      for (const [name, text] of Object.entries({ 'theme.json': '{"name": "X", "description": "A test theme."}', ...files }))
        fs.writeFileSync(path.join(themes, id, name), text);
    };
    const tokens = fs.readFileSync(path.join(themes, 'classic', 'theme.css'), 'utf8');
    make('no-tokens', ':root { --color-text: #000; }');
    make(
      'network',
      `${tokens}\n@import "more.css";\n.doc { background: url(https://example.com/bg.png); }\n@font-face { font-family: X; src: url(data:font/woff2;base64,AA); }`,
    );
    make('partials', tokens, {
      'partials/footer-band.hbs': '<div></div>',
      'partials/header.hbs': '<script>alert(1)</script><img src="https://example.com/logo.png">',
      'partials/notes.hbs': '{{#if view.notes}} unclosed',
    });
    make('manifest', tokens, { 'theme.json': '{"name": "", "colour": "red", "page_size": "a3"}' });
    make('Bad_Name', tokens);
    fs.writeFileSync(path.join(themes, 'ocean.css'), tokens);
    let error: StartupError | undefined;
    try {
      loadAssets(root, limits);
    } catch (err) {
      error = err as StartupError;
    }
    expect(error).to.be.instanceOf(StartupError);
    const text = error!.problems.join('\n');
    expect(text).to.match(/themes\/no-tokens\/theme\.css does not set --color-bar-bg, .*--weight-title/);
    expect(text).to.contain('themes/network/theme.css reaches beyond the page: @import');
    expect(text).to.contain('themes/network/theme.css reaches beyond the page: url(https://example.com/bg.png)');
    expect(text).to.contain('themes/network/theme.css reaches beyond the page: @font-face');
    expect(text).to.contain('themes/partials/partials/footer-band.hbs replaces no shared partial');
    expect(text).to.contain('themes/partials/partials/header.hbs reaches beyond the page: <script>');
    expect(text).to.contain('themes/partials/partials/header.hbs reaches beyond the page: https://example.com/logo.png');
    expect(text).to.contain('themes/partials/partials/notes.hbs: Parse error');
    expect(text).to.contain('themes/manifest/theme.json: unknown key "colour"');
    expect(text).to.contain('themes/manifest/theme.json: "name" must be a text');
    expect(text).to.contain('themes/manifest/theme.json: "page_size" must be "letter" or "a4"');
    expect(text).to.contain("themes/Bad_Name/: a theme's folder name is its id");
    expect(text).to.contain('themes/ocean.css: a theme is a folder now (themes/ocean/theme.css)');
  });

  it('lists every broken file at once', function () {
    const root = copyProjectData();
    fs.rmSync(path.join(root, 'schemas', 'quote.json'));
    fs.writeFileSync(path.join(root, 'schemas', 'receipt.json'), '{ "type": ');
    const fr = JSON.parse(fs.readFileSync(path.join(root, 'locales', 'fr.json'), 'utf8'));
    delete fr.labels.total_title;
    fs.writeFileSync(path.join(root, 'locales', 'fr.json'), JSON.stringify(fr));
    const units = JSON.parse(fs.readFileSync(path.join(root, 'locales', 'units.json'), 'utf8'));
    delete units.units.HUR.th;
    fs.writeFileSync(path.join(root, 'locales', 'units.json'), JSON.stringify(units));
    fs.rmSync(path.join(root, 'templates', 'partials', 'totals.hbs'));
    fs.writeFileSync(path.join(root, 'templates', 'partials', 'notes.hbs'), '{{#if view.notes}} unclosed');
    fs.rmSync(path.join(root, 'themes', 'slate', 'theme.css'));
    let error: StartupError | undefined;
    try {
      loadAssets(root, limits);
    } catch (err) {
      error = err as StartupError;
    }
    expect(error).to.be.instanceOf(StartupError);
    const text = error!.problems.join('\n');
    expect(text).to.contain('quote.json is missing');
    expect(text).to.contain('receipt.json');
    expect(text).to.contain('fr.json lacks 1 key(s) of en.json: labels.total_title');
    expect(text).to.contain('units.json: HUR has no name in th');
    expect(text).to.contain('partials/totals.hbs is missing');
    expect(text).to.contain('partials/notes.hbs');
    expect(text).to.contain('themes/slate/theme.css is missing');
  });

  it("a broken file of the API's counted messages stops start-up naming it, with the other problems", function () {
    const root = copyProjectData();
    const file = path.join(root, 'locales', 'api', 'en.json');
    fs.writeFileSync(file, '{ "quota_exceeded": ');
    fs.rmSync(path.join(root, 'themes', 'slate', 'theme.css'));
    let error: StartupError | undefined;
    try {
      loadAssets(root, limits);
    } catch (err) {
      error = err as StartupError;
    }
    expect(error).to.be.instanceOf(StartupError);
    expect(error!.problems.find((p) => p.startsWith(`${file}: `))).to.be.a('string');
    expect(error!.problems.join('\n')).to.contain('themes/slate/theme.css is missing');
    fs.writeFileSync(file, JSON.stringify({ quota_exceeded: { one: 'One document.' } }));
    expect(() => loadAssets(root, limits)).to.throw(StartupError, `${file}: quota_exceeded must each have "one" and "other" texts`);
  });

  it('rejects bad configuration values, naming each', function () {
    let error: ConfigError | undefined;
    try {
      loadConfig({ PORT: 'eighty', LOGO_ALLOW_PRIVATE: 'maybe', MAX_ITEMS: '0', LOG_LEVEL: 'loud', REDIS_URL: 'http://x' });
    } catch (err) {
      error = err as ConfigError;
    }
    expect(error).to.be.instanceOf(ConfigError);
    expect(error!.problems.join('\n'))
      .to.contain('PORT')
      .and.contain('LOGO_ALLOW_PRIVATE')
      .and.contain('MAX_ITEMS')
      .and.contain('LOG_LEVEL')
      .and.contain('REDIS_URL');
  });

  it('plan limits follow one rule: a whole number is that many documents (0: none), `unlimited` is none at all', function () {
    expect(loadConfig({}).planLimits).to.deep.equal({ free: 100, paid: null });
    expect(loadConfig({ FREE_PLAN_LIMIT: '0', PAID_PLAN_LIMIT: '0' }).planLimits).to.deep.equal({ free: 0, paid: 0 });
    expect(loadConfig({ FREE_PLAN_LIMIT: 'unlimited', PAID_PLAN_LIMIT: '5000' }).planLimits).to.deep.equal({ free: null, paid: 5000 });
    expect(() => loadConfig({ PAID_PLAN_LIMIT: 'lots' })).to.throw(ConfigError, /PAID_PLAN_LIMIT/);
  });

  it('configured limits replace the schema bounds', function () {
    const assets = loadAssets(projectRoot(), { ...limits, maxItems: 3 });
    const validate = assets.schemas.get('invoice').validate;
    const doc = { from: 'A', to: 'B', items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] };
    expect(validate(doc)).to.equal(false);
    expect(validate.errors?.[0]?.params).to.deep.equal({ limit: 3 });
  });
});

describe('start-up: the official rule sets', function () {
  it('missing rule files are named, every one, and start-up stops', function () {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-'));
    const config = loadConfig({ RULES_DIR: empty });
    expect(config.receivedEInvoices).to.equal(true);
    let error: unknown;
    try {
      acquireRulesPool(config);
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(RulesLoadError);
    const problems = (error as RulesLoadError).problems.join('\n');
    for (const file of ['en16931-ubl.sef.json', 'peppol-ubl.sef.json', 'xrechnung-cii.sef.json', 'Factur-X_1.09_BASIC.sef.json']) {
      expect(problems).to.contain(file);
    }
    expect((error as RulesLoadError).message)
      .to.contain('npm run standards')
      .and.contain('RECEIVED_EINVOICES=false');
  });

  it('every standard is read from the standards folder (vendor/, or STANDARDS_DIR): nothing outside the checkout', function () {
    const config = loadConfig({});
    const vendor = path.join(projectRoot(), 'vendor');
    expect(config.standardsDir).to.equal(vendor);
    for (const p of [config.rulesDir, config.ublXsdDir, config.ciiXsdFile, config.facturxXsdDir])
      expect(p.startsWith(vendor), p).to.equal(true);
    const moved = loadConfig({ STANDARDS_DIR: '/srv/standards', RECEIVED_EINVOICES: 'off' });
    expect(moved.rulesDir).to.equal('/srv/standards');
    expect(moved.ciiXsdFile).to.equal('/srv/standards/cii-d16b/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd');
    expect(moved.receivedEInvoices).to.equal(false);
    expect(() => loadConfig({ RECEIVED_EINVOICES: 'maybe' })).to.throw(/RECEIVED_EINVOICES must be true or false/);
  });
});
