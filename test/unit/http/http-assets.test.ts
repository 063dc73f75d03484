// The edge's data files (http-assets.ts) are read once at start-up; a missing or broken one stops start-up with every
// problem listed, as the core's do (test/integration/startup.test.ts).
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { StartupError } from '../../../server/assets';
import { projectRoot } from '../../../server/config';
import { ACCOUNT_PAGES } from '../../../server/http/account/pages';
import { loadHttpAssets } from '../../../server/http/http-assets';
import { copyProjectData } from '../../helpers/service';

describe('the data files of the HTTP edge', function () {
  it('loads the project as it is: every account page, every example, the package version', function () {
    const web = loadHttpAssets(projectRoot());
    for (const name of ACCOUNT_PAGES) expect(web.pages.render(name, { title: 'T', csrf: 'c' }), name).to.contain('<html');
    expect([...web.examples.keys()]).to.include.members(['invoice', 'receipt', 'credit_note', 'quote']);
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot(), 'package.json'), 'utf8')) as { version: string };
    expect(web.version).to.equal(pkg.version);
  });

  it('lists every broken file at once', function () {
    const root = copyProjectData(['templates', 'examples']);
    const account = path.join(root, 'templates', 'account');
    fs.rmSync(path.join(account, 'revoke.hbs'));
    fs.writeFileSync(path.join(account, 'settings.hbs'), '{{#> layout}} {{#if signedIn}} unclosed {{/layout}}');
    fs.writeFileSync(path.join(root, 'examples', 'quote.json'), '{ "type": ');
    fs.writeFileSync(path.join(root, 'examples', 'receipt.json'), '');
    let error: StartupError | undefined;
    try {
      loadHttpAssets(root);
    } catch (err) {
      error = err as StartupError;
    }
    expect(error).to.be.instanceOf(StartupError);
    const text = error!.problems.join('\n');
    expect(text).to.contain('templates/account/revoke.hbs is missing');
    expect(text).to.contain('templates/account/settings.hbs:');
    expect(text).to.contain('examples/quote.json:');
    expect(text).to.contain('examples/receipt.json:');
    expect(error!.problems).to.have.length(4);
  });

  it('names a missing layout', function () {
    const root = copyProjectData(['templates', 'examples']);
    fs.rmSync(path.join(root, 'templates', 'account', 'layout.hbs'));
    expect(() => loadHttpAssets(root)).to.throw(StartupError, 'templates/account/layout.hbs is missing');
  });
});
