import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv from 'ajv';
import { natsAuthorizationConfig } from '../../libs/contracts/src/nats-permissions';
import { configSchema as gatewayConfig } from '../../services/gateway/src/config';
import { compose, composeText, interpolate } from './support/compose';
import { fromRoot, services } from './support/paths';

// The Compose Specification's JSON schema, as shipped by the dclint package. Its `$schema` names
// draft-07 by an https URL Ajv does not know by that name; the draft itself is Ajv's default.
const { $schema: _draft, ...composeSchema } = JSON.parse(
  readFileSync(
    path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas/compose.schema.json'),
    'utf8',
  ),
);

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(composeSchema);
    expect(validate(compose) ? [] : validate.errors).toEqual([]);
    expect(validate({ ...compose, services: { ...compose.services, typo: { imagee: 'x' } } })).toBe(false);
  });

  it('runs PostgreSQL, NATS with JetStream, MinIO, its bucket set-up and the five services', () => {
    expect(Object.keys(compose.services).sort()).toEqual(
      ['minio', 'minio-init', 'nats', 'postgres', ...services].sort(),
    );
    expect(compose.services.nats.healthcheck?.test.join(' ')).toContain('js-enabled-only=true');
    expect(JSON.stringify(compose.services.nats)).toContain('--jetstream');
  });

  it('builds each service from its target of the Dockerfile', () => {
    for (const service of services) {
      expect(compose.services[service].build).toEqual({ context: '.', target: service });
    }
  });

  it('publishes the gateway on one port and nothing else', () => {
    const published = Object.entries(compose.services).filter(([, s]) => s.ports?.length);
    expect(published.map(([name, s]) => [name, s.ports!.length])).toEqual([['gateway', 1]]);
    expect(compose.services.gateway.ports![0]).toMatch(/:8080$/);
  });

  it('gives only the monitor a capability, NET_RAW, and runs every service read-only with all others dropped', () => {
    for (const service of services) {
      const s = compose.services[service];
      expect(s.read_only).toBe(true);
      expect(s.cap_drop).toEqual(['ALL']);
      expect(s.cap_add).toEqual(service === 'monitor' ? ['NET_RAW'] : undefined);
    }
    const adding = Object.entries(compose.services).filter(([, s]) => s.cap_add);
    expect(adding.map(([name]) => name)).toEqual(['monitor']);
  });

  it('starts each service only after what it needs is healthy (or, for the bucket, done)', () => {
    const conditions = Object.values(compose.services).flatMap((s) =>
      Object.entries(s.depends_on ?? {}).map(([name, d]) => [name, d.condition]),
    );
    for (const [name, condition] of conditions) {
      expect([name, condition]).toEqual([
        name,
        name === 'minio-init' ? 'service_completed_successfully' : 'service_healthy',
      ]);
      // A health-gated dependency needs a health check: its own, or the image's HEALTHCHECK.
      if (condition === 'service_healthy') {
        const own = compose.services[name].healthcheck;
        if (own) expect([name, own.test[0]]).toEqual([name, expect.stringMatching(/^CMD(-SHELL)?$/)]);
        else expect(services).toContain(name);
      }
    }
    for (const service of ['gateway', 'auth', 'inventory', 'media']) {
      expect(Object.keys(compose.services[service].depends_on ?? {})).toEqual(
        expect.arrayContaining(['postgres', 'nats']),
      );
    }
    expect(Object.keys(compose.services.media.depends_on ?? {})).toContain('minio-init');
  });

  it("rotates every container's log, so that logs cannot fill the host's disk", () => {
    for (const [name, service] of Object.entries(compose.services)) {
      const options = service.logging?.options ?? {};
      expect([name, service.logging?.driver]).toEqual([name, expect.stringMatching(/^(json-file|local)$/)]);
      expect([name, interpolate(String(options['max-size']), () => '')]).toEqual([
        name,
        expect.stringMatching(/^\d+[km]$/),
      ]);
      expect([name, Number(interpolate(String(options['max-file']), () => ''))]).toEqual([
        name,
        expect.any(Number),
      ]);
    }
  });

  it('runs images of a pinned release: PostgreSQL and NATS to the patch, MinIO to its release', () => {
    const images = Object.fromEntries(
      Object.entries(compose.services)
        .filter(([, s]) => !s.build)
        .map(([name, s]) => [name, s.image]),
    );
    expect(images).toEqual({
      postgres: expect.stringMatching(/^postgres:\d+\.\d+-[a-z]+$/),
      nats: expect.stringMatching(/^nats:\d+\.\d+\.\d+-alpine$/),
      minio: expect.stringMatching(/^minio\/minio:RELEASE\.[\dT-]+Z$/),
      'minio-init': expect.stringMatching(/^minio\/mc:RELEASE\.[\dT-]+Z$/),
    });
  });

  it('keeps data in named volumes', () => {
    const mounts = Object.values(compose.services).flatMap((s) => s.volumes ?? []);
    expect(mounts).toHaveLength(4);
    for (const mount of mounts) {
      expect(Object.keys(compose.volumes ?? {})).toContain(mount.split(':')[0]);
    }
  });

  it('holds no secret: passwords and keys come from the environment, and are required', () => {
    const natsPasswords = services.map((s) => `NATS_${s.toUpperCase()}_PASSWORD`);
    for (const name of ['POSTGRES_PASSWORD', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', ...natsPasswords]) {
      const uses = composeText.match(new RegExp(`\\$\\{${name}[^}]*\\}`, 'g')) ?? [];
      expect(uses.length).toBeGreaterThan(0);
      for (const use of uses) expect(use).toMatch(new RegExp(`^\\$\\{${name}:\\?.+\\}$`));
    }
    // A value that is an absolute path names where a secret goes (ADMIN_PASSWORD_OUTPUT_FILE), not one.
    expect(composeText).not.toMatch(/(PASSWORD|SECRET|KEY_ID)\w*:[ \t]+['"]*[^$\s{'"/]/);
  });

  it('has an env file template naming every variable docker-compose.yml reads', () => {
    const example = readFileSync(path.join(__dirname, '../compose/env.example'), 'utf8');
    const listed = new Set([...example.matchAll(/^#?\s*([A-Z][A-Z0-9_]*)=/gm)].map((m) => m[1]));
    const used = new Set([...composeText.matchAll(/\$\{([A-Z][A-Z0-9_]*)/g)].map((m) => m[1]));
    const passedThrough = Object.values(compose.services).flatMap((s) =>
      Object.entries(s.environment ?? {})
        .filter(([, v]) => v === null)
        .map(([k]) => k),
    );
    expect([...used, ...passedThrough].filter((name) => !listed.has(name))).toEqual([]);
  });

  it('logs every service in to NATS as a user of its own, which NATS knows with only its permissions', () => {
    const nats = compose.services.nats as typeof compose.services.nats & {
      command?: string[];
      configs?: { source: string; target: string }[];
    };
    const [mounted] = nats.configs ?? [];
    expect(nats.command).toEqual(expect.arrayContaining(['--config', mounted.target]));
    const file = (compose as { configs?: Record<string, { file: string }> }).configs?.[mounted.source].file;
    // The users for the default namespace, as scripts/nats-config.mjs prints them.
    expect(readFileSync(fromRoot(file!), 'utf8')).toContain(
      natsAuthorizationConfig('cm', (p) => `$NATS_${p.toUpperCase()}_PASSWORD`),
    );
    for (const service of services) {
      const env = compose.services[service].environment ?? {};
      const variable = `NATS_${service.toUpperCase()}_PASSWORD`;
      expect(interpolate(String(env.NATS_USER), () => '')).toBe(`cm-${service}`);
      expect(env.NATS_PASSWORD).toMatch(new RegExp(`^\\$\\{${variable}:\\?`));
      expect(nats.environment?.[variable]).toBe(`"${String(env.NATS_PASSWORD)}"`);
    }
  });

  it('lets browsers upload through the gateway with no extra setting: it reaches the store as media does', () => {
    const gateway = compose.services.gateway.environment ?? {};
    const media = compose.services.media.environment ?? {};
    for (const name of [
      'S3_ENDPOINT',
      'S3_BUCKET',
      'S3_FORCE_PATH_STYLE',
      'S3_PUBLIC_ENDPOINT',
      'S3_REGION',
      'S3_ACCESS_KEY_ID',
      'S3_SECRET_ACCESS_KEY',
    ]) {
      expect([name, gateway[name]]).toEqual([name, media[name]]);
    }
    // Unset unless the operator gives it: uploads then go through the gateway's /store.
    expect(gateway.S3_PUBLIC_ENDPOINT).toBeNull();
    expect(compose.services.minio.ports).toBeUndefined();
    const config = gatewayConfig.parse({
      NODE_ENV: 'production',
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_ORIGIN: 'https://monitor.campus.edu',
      S3_ENDPOINT: gateway.S3_ENDPOINT,
      S3_BUCKET: interpolate(String(gateway.S3_BUCKET), () => ''),
      S3_FORCE_PATH_STYLE: gateway.S3_FORCE_PATH_STYLE,
      S3_ACCESS_KEY_ID: interpolate(String(gateway.S3_ACCESS_KEY_ID), () => 'minio-user'),
      S3_SECRET_ACCESS_KEY: interpolate(String(gateway.S3_SECRET_ACCESS_KEY), () => 'minio-password'),
    });
    expect(config).toMatchObject({ S3_ENDPOINT: 'http://minio:9000', S3_BUCKET: 'cm-media' });
  });

  it('trusts only a TLS proxy on this host or the Compose network, not campus clients that could forge their address', () => {
    const env = compose.services.gateway.environment ?? {};
    const trustProxy = interpolate(String(env.TRUST_PROXY), () => '');
    const config = gatewayConfig.parse({
      SESSION_SECRET: 'x'.repeat(32),
      PUBLIC_ORIGIN: 'https://monitor.campus.edu',
      TRUST_PROXY: trustProxy,
    });
    // The network the gateway is on, as Compose creates it; a proxy on the host reaches the
    // published port from its first address (Docker's port proxy), one in a container from within.
    const subnet = interpolate(compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '', () => '');
    expect(subnet).toMatch(/^\d+\.\d+\.\d+\.0\/24$/);
    const hostSide = subnet.replace(/0\/24$/, '1');
    // The gateway's own Express reads the setting.
    const express = createRequire(fromRoot('services/gateway/package.json'))('express') as () => {
      set(name: string, value: unknown): void;
      get(name: string): (address: string, hop: number) => boolean;
    };
    const app = express();
    app.set('trust proxy', config.TRUST_PROXY);
    const trusted = (address: string) => app.get('trust proxy fn')(address, 0);
    expect([trusted('127.0.0.1'), trusted(hostSide), trusted(subnet.replace(/0\/24$/, '9'))]).toEqual([
      true,
      true,
      true,
    ]);
    // Clients on the campus's private networks reach the published port with their own address.
    for (const client of [
      '10.20.30.40',
      '172.16.5.6',
      '172.31.0.7',
      '192.168.1.20',
      'fd00::1',
      '203.0.113.9',
    ]) {
      expect([client, trusted(client)]).toEqual([client, false]);
    }
    // Required, as the gateway refuses to start in production without it.
    expect(env.PUBLIC_ORIGIN).toMatch(/^\$\{PUBLIC_ORIGIN:\?/);
  });

  it('moves the network and the trusted subnet together with CM_SUBNET', () => {
    const set = { CM_SUBNET: '192.168.250.0/24' };
    const subnet = compose.networks?.default?.ipam?.config?.[0]?.subnet ?? '';
    expect(interpolate(subnet, () => '', set)).toBe('192.168.250.0/24');
    const trustProxy = String(compose.services.gateway.environment?.TRUST_PROXY);
    expect(interpolate(trustProxy, () => '', set)).toBe('loopback,192.168.250.0/24');
    expect(interpolate(trustProxy, () => '', { ...set, TRUST_PROXY: '1' })).toBe('1');
  });
});
