import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import dockerignore from '@balena/dockerignore';
import { DockerfileParser, type Instruction, type Label } from 'dockerfile-ast';
import { parse } from 'yaml';
import { setByImage } from './support/config-schemas';
import { chartDir, fromRoot, repoRoot, services } from './support/paths';

interface Stage {
  name: string;
  from: string;
  instructions: Instruction[];
}

const dockerfile = DockerfileParser.parse(readFileSync(fromRoot('Dockerfile'), 'utf8'));
const stages: Stage[] = [];
for (const instruction of dockerfile.getInstructions()) {
  if (instruction.getKeyword() === 'FROM') {
    const [from, , name] = instruction.getArguments().map((a) => a.getValue());
    stages.push({ name, from, instructions: [] });
  } else stages.at(-1)?.instructions.push(instruction);
}
const stage = (name: string) => {
  const found = stages.find((s) => s.name === name);
  if (!found) throw new Error(`no stage ${name}`);
  return found;
};
/** The stage and the stages it is built FROM, nearest first. */
const chain = (name: string): Stage[] => {
  const s = stage(name);
  return stages.some((other) => other.name === s.from) ? [s, ...chain(s.from)] : [s];
};
const argsOf = (s: Stage, keyword: string) =>
  s.instructions
    .filter((i) => i.getKeyword() === keyword)
    .map((i) => i.getArguments().map((a) => a.getValue()));
const envOf = (name: string): Record<string, string> =>
  Object.assign(
    {},
    ...chain(name)
      .reverse()
      .flatMap((s) => argsOf(s, 'ENV'))
      .flat()
      .map((pair) => Object.fromEntries([pair.split('=')])),
  );
const copiesFromContext = stages.flatMap((s) =>
  s.instructions
    .filter((i) => i.getKeyword() === 'COPY' && !/--from=/.test(i.getTextContent()))
    .flatMap((i) => {
      const args = i.getArguments().map((a) => a.getValue());
      return args.slice(0, -1);
    }),
);

const values = parse(readFileSync(path.join(chartDir, 'values.yaml'), 'utf8'));
const rootManifest = JSON.parse(readFileSync(fromRoot('package.json'), 'utf8'));
const workspaceDirs: string[] = rootManifest.workspaces.flatMap((pattern: string) =>
  pattern.endsWith('/*')
    ? readdirSync(fromRoot(pattern.slice(0, -2)))
        .map((dir) => `${pattern.slice(0, -2)}/${dir}`)
        .filter((dir) => existsSync(fromRoot(dir, 'package.json')))
    : [pattern],
);
const workspaceOf = (name: string) =>
  workspaceDirs.find((dir) => JSON.parse(readFileSync(fromRoot(dir, 'package.json'), 'utf8')).name === name)!;
/** A workspace and every workspace it depends on at run time. */
function runtimeWorkspaces(dir: string): string[] {
  const { dependencies = {} } = JSON.parse(readFileSync(fromRoot(dir, 'package.json'), 'utf8'));
  const linked = Object.keys(dependencies)
    .filter((d) => d.startsWith('@cm/'))
    .map(workspaceOf);
  return [dir, ...linked.flatMap(runtimeWorkspaces)];
}

describe('Dockerfile', () => {
  it('starts from the current Node LTS (24) on Debian bookworm slim', () => {
    const [nodeImage] = dockerfile.getARGs().filter((a) => a.getProperty()?.getName() === 'NODE_IMAGE');
    expect(nodeImage.getProperty()?.getValue()).toBe('node:24-bookworm-slim');
    expect(stages[0].from).toBe('${NODE_IMAGE}');
    expect(stages.filter((s) => s.from.includes(':'))).toEqual([]);
  });

  it('labels each image with the OCI annotations: its title, and the release, commit and source it was built from', () => {
    // Each image sees the labels of every stage it is built FROM, its own last.
    const labelsOf = (name: string): Record<string, string> =>
      Object.fromEntries(
        chain(name)
          .reverse()
          .flatMap((s) => s.instructions.filter((i): i is Label => i.getKeyword() === 'LABEL'))
          .flatMap((label) => label.getProperties())
          .map((p) => [p.getName(), p.getValue()?.replace(/^"(.*)"$/, '$1') ?? '']),
      );
    // Values a release build passes as build arguments, declared in the stage that labels with them.
    const declared = chain('runtime')
      .flatMap((s) => argsOf(s, 'ARG'))
      .map(([arg]) => arg.split('=')[0]);
    for (const service of services) {
      const labels = labelsOf(service);
      expect(labels).toMatchObject({
        'org.opencontainers.image.title': `classroom-monitor-${service}`,
        'org.opencontainers.image.description': expect.stringMatching(/^Classroom Monitor: /),
        'org.opencontainers.image.version': '${VERSION}',
        'org.opencontainers.image.revision': '${REVISION}',
        'org.opencontainers.image.created': '${CREATED}',
        'org.opencontainers.image.source': '${SOURCE}',
        'org.opencontainers.image.base.name': '${NODE_IMAGE}',
      });
      for (const value of Object.values(labels)) {
        for (const [, arg] of value.matchAll(/\$\{(\w+)\}/g)) expect(declared).toContain(arg);
      }
    }
  });

  it('has one target per service, each built on the runtime stage and last in the file', () => {
    expect(stages.slice(-services.length).map((s) => s.name)).toEqual([...services]);
    for (const service of services) expect(stage(service).from).toBe('runtime');
    expect(chain('runtime').map((s) => s.name)).toEqual(['runtime', 'base']);
  });

  it('runs every service but the monitor as a numeric non-root user, and the monitor as root', () => {
    for (const service of services) {
      const users = chain(service).flatMap((s) => argsOf(s, 'USER'));
      const [uid] = users[0][0].split(':');
      if (service === 'monitor') expect(uid).toBe('0');
      else expect(Number(uid)).toBeGreaterThan(0);
    }
  });

  it('checks the health of every service on the port and path the chart probes', () => {
    const [healthcheck] = argsOf(stage('runtime'), 'HEALTHCHECK');
    expect(healthcheck.slice(healthcheck.indexOf('CMD') + 1).join(' ')).toBe(
      '["node", "/usr/local/lib/cm/healthcheck.js"]',
    );
    const script = readFileSync(path.join(repoRoot, 'deploy/docker/healthcheck.js'), 'utf8');
    // Readiness of the process itself (never the system status, which other services sway).
    expect(script).toContain('${process.env.HTTP_PORT}/readyz');
    expect(script).toContain('${process.env.PORT}/api/readyz');
    for (const service of services) {
      const env = envOf(service);
      // The script tells the gateway by its lack of HTTP_PORT.
      const portVariable = service === 'gateway' ? 'PORT' : 'HTTP_PORT';
      expect('HTTP_PORT' in env).toBe(service !== 'gateway');
      expect(env[portVariable]).toBe(String(values[service].containerPort));
      expect(argsOf(stage(service), 'EXPOSE')).toEqual([[String(values[service].containerPort)]]);
      expect(env[service === 'gateway' ? 'HOST' : 'HTTP_HOST']).toBe('0.0.0.0');
    }
  });

  it('sets in each image the variables that describe the image', () => {
    for (const service of services) {
      expect(Object.keys(envOf(service))).toEqual(expect.arrayContaining(setByImage[service]));
    }
    expect(envOf('runtime').NODE_ENV).toBe('production');
    const gateway = stage('gateway').instructions.map((i) => i.getTextContent());
    expect(gateway).toContain(
      `COPY --from=build /app/web/dist ${path.relative('/app', envOf('gateway').WEB_DIST_DIR)}`,
    );
  });

  it('copies every workspace manifest before `npm ci`, as the lockfile requires', () => {
    const copied = argsOf(stage('manifests'), 'COPY').map((args) => args[0]);
    expect(copied.filter((file) => file.endsWith('/package.json')).sort()).toEqual(
      workspaceDirs
        .filter((dir) => dir !== '.')
        .map((dir) => `${dir}/package.json`)
        .sort(),
    );
  });

  it('copies the sources of every workspace an image runs, and of the web app', () => {
    const sources = argsOf(stage('build'), 'COPY').map((args) => args[0]);
    const needed = [...new Set(services.flatMap((s) => runtimeWorkspaces(`services/${s}`))), 'web'];
    for (const dir of needed) {
      expect({ dir, copied: sources.some((src) => dir === src || dir.startsWith(`${src}/`)) }).toEqual({
        dir,
        copied: true,
      });
    }
  });

  it('gives each service an image of its own production dependencies and built code', () => {
    for (const service of services) {
      expect(
        argsOf(stage(`bundle-${service}`), 'RUN')
          .flat()
          .join(' '),
      ).toContain(`deploy/docker/bundle.sh @cm/${service}`);
      expect(stage(service).instructions.map((i) => i.getTextContent())).toContain(
        `COPY --from=bundle-${service} /bundle ./`,
      );
      const [cmd] = chain(service).flatMap((s) => argsOf(s, 'CMD'));
      expect(cmd.join(' ')).toBe('["node", "dist/main.js"]');
      expect(argsOf(stage(service), 'WORKDIR')).toEqual([[`/app/services/${service}`]]);
    }
    const bundle = readFileSync(path.join(repoRoot, 'deploy/docker/bundle.sh'), 'utf8');
    expect(bundle).toMatch(/npm ci --omit=dev --workspace "\$workspace"/);
  });

  it('builds from a context that has every file it copies, and no dependencies, outputs or secrets', () => {
    const ignore = dockerignore().add(readFileSync(fromRoot('.dockerignore'), 'utf8'));
    for (const source of copiesFromContext) {
      expect({ source, exists: existsSync(fromRoot(source)), ignored: ignore.ignores(source) }).toEqual({
        source,
        exists: true,
        ignored: false,
      });
    }
    for (const file of [
      'node_modules/zod/package.json',
      'services/auth/node_modules/x/package.json',
      'services/auth/dist/main.js',
      'web/dist/index.html',
      '.env',
      '.git/config',
      'artifacts/jest/x.json',
    ]) {
      expect({ file, ignored: ignore.ignores(file) }).toEqual({ file, ignored: true });
    }
  });
});
