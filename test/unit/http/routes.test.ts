// The route table (routes.ts) and the OpenAPI description say the same: every operation a client can POST to is a
// row, with the media types its 200 answer may have.

import { expect } from 'chai';
import { loadConfig, projectRoot } from '../../../server/config';
import { loadHttpAssets } from '../../../server/http/http-assets';
import { buildOpenApi } from '../../../server/http/openapi';
import { ROUTES } from '../../../server/http/routes';
import { projectAssets } from '../../helpers/project-assets';

type Operation = { responses: { 200: { content: Record<string, unknown> } } };

describe('the route table', function () {
  const root = projectRoot();
  const api = buildOpenApi(projectAssets(loadConfig({ NODE_ENV: 'test' }).limits).schemas, loadHttpAssets(root)) as {
    paths: Record<string, { post?: Operation }>;
  };

  it('has one row per path', function () {
    const paths = ROUTES.map((r) => r.path);
    expect(new Set(paths).size).to.equal(paths.length);
  });

  it('holds every POST operation of the OpenAPI description, and no other', function () {
    const described = Object.entries(api.paths)
      .filter(([, item]) => item.post)
      .map(([p]) => p);
    expect(ROUTES.map((r) => r.path).sort()).to.deep.equal(described.sort());
  });

  it('answers each with the media types the description gives its 200', function () {
    for (const route of ROUTES) {
      const ok = api.paths[route.path]?.post?.responses[200];
      expect(route.method, route.path).to.equal('POST');
      expect(Object.keys(ok?.content ?? {}).sort(), route.path).to.deep.equal([...route.answers].sort());
    }
  });
});
