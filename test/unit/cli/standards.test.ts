// The standards CLI's arguments (cli/standards.ts parseStandardsArgs): install by default or check; --dest, else
// STANDARDS_DIR, else vendor/; --mirror, else STANDARDS_MIRROR, else the publishers; both made absolute; the usage
// (exit 0) for --help and (exit 2) for a command it does not know or more than one; an unknown option throws.
import path from 'node:path';
import { expect } from 'chai';
import { parseStandardsArgs } from '../../../server/cli/standards';
import { projectRoot } from '../../../server/config';

describe('standards CLI arguments', function () {
  it('installs into vendor/ from the publishers by default', function () {
    expect(parseStandardsArgs([], {})).to.deep.equal({
      command: 'install',
      dest: path.join(projectRoot(), 'vendor'),
      mirror: undefined,
      fromSources: undefined,
    });
  });

  it('takes check or install, --dest and --mirror made absolute, and --from-sources', function () {
    expect(parseStandardsArgs(['check', '--dest', 'some/dir'], {})).to.include({ command: 'check', dest: path.resolve('some/dir') });
    expect(parseStandardsArgs(['install', '--mirror=m', '--from-sources'], {})).to.include({
      command: 'install',
      mirror: path.resolve('m'),
      fromSources: true,
    });
  });

  it('falls back on STANDARDS_DIR and STANDARDS_MIRROR, the options winning, empty variables ignored', function () {
    const env = { STANDARDS_DIR: '/opt/std', STANDARDS_MIRROR: '/mnt/mirror' };
    expect(parseStandardsArgs([], env)).to.include({ dest: '/opt/std', mirror: '/mnt/mirror' });
    expect(parseStandardsArgs(['--dest', '/d', '--mirror', '/m'], env)).to.include({ dest: '/d', mirror: '/m' });
    expect(parseStandardsArgs([], { STANDARDS_DIR: '', STANDARDS_MIRROR: '' })).to.include({
      dest: path.join(projectRoot(), 'vendor'),
      mirror: undefined,
    });
  });

  it('answers the usage: exit 0 for --help, 2 for another command or more than one', function () {
    expect(parseStandardsArgs(['--help'], {})).to.deep.equal({ usage: 0 });
    expect(parseStandardsArgs(['check', '--help'], {})).to.deep.equal({ usage: 0 });
    expect(parseStandardsArgs(['uninstall'], {})).to.deep.equal({ usage: 2 });
    expect(parseStandardsArgs(['install', 'check'], {})).to.deep.equal({ usage: 2 });
    expect(parseStandardsArgs(['constructor'], {}), 'no inherited name passes').to.deep.equal({ usage: 2 });
  });

  it('throws on an unknown option or a missing value', function () {
    expect(() => parseStandardsArgs(['--evil'], {})).to.throw(/--evil/);
    expect(() => parseStandardsArgs(['--dest'], {})).to.throw(/--dest/);
  });
});
