// The project's data files loaded once per test process (server/assets.ts loadAssets on the repository, by limits),
// for the tests that read them and change nothing: each loading compiles every schema and template again, about
// 0.8 s, which a dozen unit files paid each.
import { loadAssets, type Assets } from '../../server/assets';
import { loadConfig, projectRoot, type Config } from '../../server/config';

const loaded = new Map<string, Assets>();

/** The repository's assets under `limits` (the defaults unless given): one loading per process and limits. */
export function projectAssets(limits: Config['limits'] = loadConfig({}).limits): Assets {
  const key = JSON.stringify(limits);
  let assets = loaded.get(key);
  if (!assets) loaded.set(key, (assets = loadAssets(projectRoot(), limits)));
  return assets;
}
