// The deployment files, validated as far as this machine allows (no Docker engine here): docker-compose.yml through
// `docker-compose config`, the Kubernetes manifests parsed and checked against the Kubernetes schemas
// (kubernetes-models), and the Dockerfile read for the properties the deployment relies on.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { parse, parseAllDocuments } from 'yaml';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { StatefulSet } from 'kubernetes-models/apps/v1/StatefulSet';
import { NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1/NetworkPolicy';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import { Service } from 'kubernetes-models/v1/Service';
import { projectRoot } from '../../server/config';

const ROOT = projectRoot();
const K8S = path.join(ROOT, 'deploy', 'kubernetes');

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

describe('docker-compose.yml', function () {
  let config: Obj;
  before(function () {
    const out = execFileSync('docker-compose', ['-f', path.join(ROOT, 'docker-compose.yml'), 'config'], { cwd: ROOT }).toString();
    config = parse(out) as Obj;
  });

  it('is valid for docker-compose config', function () {
    expect(Object.keys(config.services).sort()).to.deep.equal(['app', 'lb', 'redis']);
  });

  it('runs two replicas of the service, built from the Dockerfile, as a non-root user, on the shared Redis', function () {
    const app = config.services.app;
    expect(app.build.context).to.equal(ROOT);
    expect(app.deploy.replicas).to.equal(2);
    expect(app.user).to.equal('10001');
    expect(app.environment.REDIS_URL).to.equal('redis://redis:6379');
    expect(app.environment.NODE_ENV).to.equal('production');
    expect(app.healthcheck.test.join(' ')).to.contain('/readyz');
    expect(app.depends_on.redis.condition).to.equal('service_healthy');
  });

  it('puts an official nginx in front, on port 3000, balancing over the replicas', function () {
    const lb = config.services.lb;
    expect(lb.image).to.match(/^nginx:/);
    expect(lb.ports[0]).to.deep.include({ published: 3000, target: 80 });
    expect(lb.depends_on.app.condition).to.equal('service_healthy');
    const nginx = fs.readFileSync(path.join(ROOT, 'deploy', 'nginx.conf'), 'utf8');
    expect(nginx).to.match(/server app:3000 resolve;/);
    expect(nginx).to.contain('proxy_pass http://docgen;');
  });

  it('keeps Redis on an internal network only, and the app trusts nginx for client addresses', function () {
    expect(config.services.redis.networks).to.have.keys('back');
    expect(config.networks.back.internal).to.equal(true);
    expect(config.services.redis.ports).to.equal(undefined);
    expect(config.services.lb.networks).to.not.have.property('back');
    expect(config.services.app.networks).to.have.keys('front', 'back');
    expect(config.services.app.environment.TRUST_PROXY).to.equal('1');
  });

  it('uses the official Redis image with a health check', function () {
    expect(config.services.redis.image).to.match(/^redis:/);
    expect(config.services.redis.healthcheck.test.join(' ')).to.contain('ping');
  });
});

describe('Dockerfile', function () {
  const text = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
  it('is based on Debian and installs with the same script as CI', function () {
    expect(text).to.match(/^FROM debian:/m);
    expect(text).to.contain('scripts/install-system.sh --build');
    expect(text).to.contain('scripts/install-system.sh --runtime');
    expect(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).to.contain('scripts/install-system.sh');
  });
  it('copies every folder of data files the service reads at run time', function () {
    for (const dir of ['schemas', 'locales', 'templates', 'themes', 'public', 'studio', 'examples']) {
      expect(text, dir).to.match(new RegExp(`^COPY ${dir}/ ${dir}/$`, 'm'));
    }
  });
  it('installs the standards from their publishers in the build stage and ships them with the manifest start-up checks', function () {
    const [build, runtime] = text.split(/^FROM /m).slice(1) as [string, string];
    expect(build).to.match(/^RUN STANDARDS_MIRROR="\$STANDARDS_MIRROR" npm run -s standards/m);
    expect(runtime).to.contain('COPY --from=build /app/vendor vendor');
    expect(runtime).to.contain('COPY standards/manifest.json standards/manifest.schema.json standards/');
    expect(text).to.not.contain('../shared');
    expect(fs.readFileSync(path.join(ROOT, '.ci', 'run'), 'utf8')).to.match(
      /^STANDARDS_MIRROR=\.\.\/shared\/standards npm run -s standards$/m,
    );
    expect(fs.readFileSync(path.join(ROOT, 'scripts', 'start'), 'utf8')).to.match(/^npm run -s standards$/m);
  });
  it('copies, before the standards step, every module that step imports, each to its own path', function () {
    const build = text.split(/^FROM /m)[1]!;
    const before = build.slice(0, build.search(/^RUN STANDARDS_MIRROR=/m));
    // What `COPY a b c dest/` puts where: a folder (ending in /) copied whole, a file into its destination folder.
    const copied = new Set<string>();
    const folders: string[] = [];
    for (const m of before.matchAll(/^COPY (?!--)(.+)$/gm)) {
      const parts = m[1]!.trim().split(/\s+/);
      const dest = parts.pop()!;
      for (const src of parts) {
        if (src.endsWith('/')) folders.push(dest);
        else copied.add(path.posix.join(dest, path.posix.basename(src)));
      }
    }
    // The standards command's own imports, followed through the project's files.
    const seen = new Set<string>();
    const visit = (file: string): void => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of source.matchAll(/^(?:import|export)[^'"]*from '(\.{1,2}\/[^']+)'/gm)) {
        if (/^import type /.test(m[0])) continue;
        visit(`${path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]!))}.ts`);
      }
    };
    visit('server/cli/standards.ts');
    const missing = [...seen].filter((f) => !copied.has(f) && !folders.some((d) => f.startsWith(d)));
    expect(missing, 'imported by the standards step but not copied before it').to.deep.equal([]);
  });
  it('runs one Node binary copied from the build stage, with no npm and no build tools, and Chromium unsandboxed', function () {
    const runtime = text.split(/^FROM /m)[2]!;
    expect(runtime).to.contain('COPY --from=build /opt/node-24/bin/node /usr/local/bin/node');
    expect(runtime).to.not.match(/npm (ci|install)|install-system\.sh --build/);
    expect(runtime).to.match(/CHROMIUM_SANDBOX=false/);
  });
  it('runs under tini, which reaps the helpers of a crashed Chromium', function () {
    expect(text).to.contain('ENTRYPOINT ["/usr/bin/tini", "--"]');
  });
  it('runs as a non-root user with a readiness health check', function () {
    const users = [...text.matchAll(/^USER\s+(\S+)/gm)].map((m) => m[1]);
    expect(users.at(-1)).to.equal('10001');
    expect(text).to.match(/HEALTHCHECK[\s\S]*\/readyz/);
  });
});

describe('Kubernetes manifests', function () {
  const docs: Obj[] = [];
  before(function () {
    for (const file of fs.readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')) {
      for (const doc of parseAllDocuments(fs.readFileSync(path.join(K8S, file), 'utf8'))) {
        expect(doc.errors, file).to.deep.equal([]);
        docs.push({ ...(doc.toJS() as Obj), __file: file });
      }
    }
  });
  const strip = (o: Obj): Obj => {
    const { __file, ...rest } = o;
    void __file;
    return rest;
  };
  const MODELS: Record<string, new (data: Obj) => { validate(): void }> = {
    'apps/v1/Deployment': Deployment as never,
    'apps/v1/StatefulSet': StatefulSet as never,
    'networking.k8s.io/v1/NetworkPolicy': NetworkPolicy as never,
    'policy/v1/PodDisruptionBudget': PodDisruptionBudget as never,
    'v1/Service': Service as never,
    'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler as never,
  };

  it('every document passes the Kubernetes schema of its kind', function () {
    expect(docs.length).to.be.greaterThanOrEqual(5);
    for (const doc of docs) {
      const model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(model, `${doc.__file}: ${doc.apiVersion} ${doc.kind}`).to.not.equal(undefined);
      expect(() => new model!(strip(doc)).validate(), `${doc.__file}: ${doc.kind} ${doc.metadata?.name}`).not.to.throw();
    }
  });

  it('the schema check catches a broken manifest', function () {
    const broken = structuredClone(strip(docs.find((d) => d.kind === 'Deployment' && d.metadata.name === 'docgen')!));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'three thousand';
    expect(() => new Deployment(broken).validate()).to.throw(/containerPort/);
  });

  it('the Deployment has probes on /readyz and /healthz, resource requests and a non-root, read-only container', function () {
    const d = docs.find((x) => x.kind === 'Deployment' && x.metadata.name === 'docgen')!;
    const c = d.spec.template.spec.containers[0];
    expect(c.readinessProbe.httpGet.path).to.equal('/readyz');
    expect(c.livenessProbe.httpGet.path).to.equal('/healthz');
    expect(c.startupProbe.httpGet.path).to.equal('/readyz');
    expect(c.resources.requests).to.have.keys('cpu', 'memory');
    expect(d.spec.template.spec.securityContext.runAsNonRoot).to.equal(true);
    expect(c.securityContext.readOnlyRootFilesystem).to.equal(true);
    expect(c.env.find((e: Obj) => e.name === 'REDIS_URL').value).to.contain('docgen-redis');
  });

  it("the Service selects the Deployment's pods and the HPA scales the Deployment", function () {
    const d = docs.find((x) => x.kind === 'Deployment' && x.metadata.name === 'docgen')!;
    const svc = docs.find((x) => x.kind === 'Service' && x.metadata.name === 'docgen')!;
    const hpa = docs.find((x) => x.kind === 'HorizontalPodAutoscaler')!;
    expect(d.spec.template.metadata.labels).to.deep.include(svc.spec.selector);
    expect(hpa.spec.scaleTargetRef).to.deep.equal({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'docgen' });
    expect(hpa.spec.minReplicas).to.be.greaterThanOrEqual(2);
    const redisSvc = docs.find((x) => x.kind === 'Service' && x.metadata.name === 'docgen-redis')!;
    expect(redisSvc).to.not.equal(undefined);
  });

  it('Redis keeps its data (a StatefulSet with a volume and the append-only file), and only the service reaches it', function () {
    const redis = docs.find((x) => x.kind === 'StatefulSet' && x.metadata.name === 'docgen-redis')!;
    expect(redis.spec.template.spec.containers[0].args).to.include.members(['--appendonly', 'yes']);
    expect(redis.spec.volumeClaimTemplates[0].metadata.name).to.equal(redis.spec.template.spec.containers[0].volumeMounts[0].name);
    const policy = docs.find((x) => x.kind === 'NetworkPolicy')!;
    expect(policy.spec.podSelector.matchLabels).to.deep.equal(redis.spec.template.metadata.labels);
    expect(policy.spec.ingress).to.have.length(1);
    expect(policy.spec.ingress[0].from).to.deep.equal([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'docgen' } } }]);
  });

  it('the service has a disruption budget, a preStop delay within its grace period, and trusts its proxies', function () {
    const d = docs.find((x) => x.kind === 'Deployment' && x.metadata.name === 'docgen')!;
    const c = d.spec.template.spec.containers[0];
    const pdb = docs.find((x) => x.kind === 'PodDisruptionBudget')!;
    expect(pdb.spec.selector.matchLabels).to.deep.equal(d.spec.template.metadata.labels);
    expect(pdb.spec.minAvailable).to.be.greaterThanOrEqual(1);
    expect(c.lifecycle.preStop.sleep.seconds).to.be.within(1, d.spec.template.spec.terminationGracePeriodSeconds - 30);
    expect(c.env.find((e: Obj) => e.name === 'TRUST_PROXY').value).to.equal('1');
    expect(Number(c.env.find((e: Obj) => e.name === 'RENDERER_MAX_RSS_MB').value) * 2).to.be.lessThan(2048);
  });

  it('kustomization.yaml lists every manifest', function () {
    const k = parse(fs.readFileSync(path.join(K8S, 'kustomization.yaml'), 'utf8')) as Obj;
    const files = fs.readdirSync(K8S).filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml');
    expect([...k.resources].sort()).to.deep.equal(files.sort());
  });
});
