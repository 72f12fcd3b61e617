import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseEnv } from '@cm/platform';
import { configSchemas } from './support/config-schemas';
import { componentOf, helm, type Manifest, refusal, releaseNamespace, render } from './support/helm';
import { deployments, envOf, ofKind, podOf, type PodSpec } from './support/kubernetes';
import { services } from './support/paths';

type Secret = Manifest & { stringData: Record<string, string> };
type ConfigMap = Manifest & { data: Record<string, string> };

const sessionSecret = 'a-session-key-given-in-the-values-0123456789';

/** `helm template` as a GitOps tool runs it: no cluster, so nothing generated can be read back. */
const template = (set: string[]) =>
  helm(['template', 'cm', '.', '--namespace', releaseNamespace, ...set.flatMap((s) => ['--set', s])]);

describe('secrets the chart generates, rendered without a cluster', () => {
  it('refuses to generate the session key, naming the values that give one', () => {
    const { status, stderr } = template(['nats.auth.existingSecret=campus-nats']);
    expect(status).not.toBe(0);
    expect(stderr).toContain('set gateway.session.secret or gateway.session.existingSecret');
    expect(stderr).toContain('would sign everyone out');
  });

  it('refuses to generate NATS passwords, naming the values that give them', () => {
    const { status, stderr } = template([`gateway.session.secret=${sessionSecret}`]);
    expect(status).not.toBe(0);
    expect(stderr).toMatch(/set nats\.auth\.passwords\.\w+ or nats\.auth\.existingSecret/);
  });

  it('renders when the values give them, or name Secrets holding them', () => {
    const given = template([
      `gateway.session.secret=${sessionSecret}`,
      ...services.map((s) => `nats.auth.passwords.${s}=nats-password-of-${s}`),
    ]);
    expect({ status: given.status, stderr: given.stderr }).toEqual({ status: 0, stderr: '' });
    const existing = template([
      'gateway.session.existingSecret=campus-session',
      'nats.auth.existingSecret=campus-nats',
    ]);
    expect({ status: existing.status, stderr: existing.stderr }).toEqual({ status: 0, stderr: '' });
  });

  it('generates them anyway when told the render is not deployed, the same in the Secret and the checksum', () => {
    const twice = [render(), render()];
    const [first, second] = twice.map((manifests) => ({
      secret: ofKind<Secret>(manifests, 'Secret').find((s) => s.metadata.name.endsWith('-session'))!
        .stringData['session-secret'],
      checksum: annotationsOf(manifests, 'gateway')['checksum/session'],
    }));
    expect(first.secret).toMatch(/^[A-Za-z0-9]{48}$/);
    // A new key each rendering, and a checksum that follows it.
    expect(second.secret).not.toBe(first.secret);
    expect(second.checksum).not.toBe(first.checksum);
  });
});

const annotationsOf = (manifests: Manifest[], component: string) =>
  (
    deployments(manifests).find((d) => componentOf(d) === component)!.spec.template as unknown as {
      metadata: { annotations: Record<string, string> };
    }
  ).metadata.annotations;

describe('the session key', () => {
  it('rolls the gateway, and only the gateway, when it changes', () => {
    const checksums = (secret: string) =>
      Object.fromEntries(
        services.map((s) => {
          const set = [`gateway.session.secret=${secret}`, 'nats.auth.existingSecret=campus-nats'];
          const annotations = annotationsOf(render([], set), s);
          return [s, JSON.stringify(annotations)];
        }),
      );
    const before = checksums(sessionSecret);
    const after = checksums(`${sessionSecret}-rotated`);
    expect(services.filter((s) => before[s] !== after[s])).toEqual(['gateway']);
  });
});

describe('NATS logins', () => {
  it('take a token from an existing Secret, with no users block and nothing in a ConfigMap', () => {
    const manifests = render(
      [],
      ['nats.auth.mode=token', 'nats.auth.token.existingSecret=campus-nats-token'],
    );
    expect(ofKind(manifests, 'Secret').map(componentOf)).not.toContain('nats-auth');
    for (const service of services) {
      const env = envOf(podOf(manifests, service).container);
      expect(env.NATS_TOKEN).toEqual({ secretKeyRef: { name: 'campus-nats-token', key: 'nats-token' } });
      expect(env.NATS_USER).toBeUndefined();
    }
    for (const configMap of ofKind<ConfigMap>(manifests, 'ConfigMap'))
      expect(Object.keys(configMap.data).filter((k) => /^NATS_(USER|PASSWORD|TOKEN|CREDS)/.test(k))).toEqual(
        [],
      );
  });

  it("mount each component's own creds file only, read-only, and name it in NATS_CREDS_FILE", () => {
    const manifests = render(
      [],
      ['nats.auth.mode=creds', 'nats.auth.creds.existingSecret=campus-nats-creds'],
    );
    for (const service of services) {
      const { pod, container } = podOf(manifests, service);
      const volume = pod.volumes!.find((v) => v.name === 'nats-creds')!;
      expect(volume.secret).toMatchObject({
        secretName: 'campus-nats-creds',
        items: [{ key: `${service}.creds`, path: 'nats.creds' }],
      });
      expect(container.volumeMounts).toContainEqual({
        name: 'nats-creds',
        mountPath: '/etc/classroom-monitor/nats',
        readOnly: true,
      });
      expect(envOf(container).NATS_CREDS_FILE).toBe('/etc/classroom-monitor/nats/nats.creds');
    }
  });

  it('refuse a token or creds login without the Secret that holds it', () => {
    expect(() => render([], ['nats.auth.mode=creds'])).toThrow(
      'nats.auth.creds.existingSecret is required when nats.auth.mode is creds',
    );
    expect(() => render([], ['nats.auth.mode=token'])).toThrow(
      'nats.auth.token.existingSecret is required when nats.auth.mode is token',
    );
  });
});

it('puts no credential given in the values into a ConfigMap', () => {
  const manifests = render(['ci/inline-credentials-values.yaml']);
  const credentials = ofKind<Secret>(manifests, 'Secret').flatMap((s) =>
    Object.entries(s.stringData)
      // The access key id is a name the store knows the key by, as a user name is.
      .filter(([key]) => !['authorization.conf', 's3-access-key-id'].includes(key))
      .map(([, value]) => value),
  );
  expect(credentials.length).toBeGreaterThan(5);
  const configText = JSON.stringify(ofKind(manifests, 'ConfigMap'));
  expect(credentials.filter((c) => configText.includes(c))).toEqual([]);
});

/** The projected volume of the credentials as files. */
const secretsVolumeOf = (pod: PodSpec) =>
  pod.volumes!.find((v) => v.name === 'secrets') as unknown as {
    projected: { sources: { secret: { name: string; items: { key: string; path: string }[] } }[] };
  };

describe('credentials as files (secretsAsFiles)', () => {
  const manifests = () => render(['ci/inline-credentials-values.yaml'], ['secretsAsFiles=true']);

  it('names each credential by <NAME>_FILE, mounted read-only from the same Secret key, and none in the environment', () => {
    const rendered = manifests();
    const secrets = ofKind<Secret>(rendered, 'Secret');
    for (const service of services) {
      const { pod, container } = podOf(rendered, service);
      expect((container.env ?? []).filter((e) => e.valueFrom)).toEqual([]);
      const volume = secretsVolumeOf(pod);
      expect(container.volumeMounts).toContainEqual({
        name: 'secrets',
        mountPath: '/etc/classroom-monitor/secrets',
        readOnly: true,
      });
      const files = Object.entries(envOf(container)).filter(([name]) => name.endsWith('_FILE'));
      // Every service logs in to NATS; all but the monitor also reach PostgreSQL.
      expect(files.length).toBeGreaterThanOrEqual(service === 'monitor' ? 1 : 2);
      for (const [name, file] of files) {
        const variable = name.replace(/_FILE$/, '');
        expect(file).toBe(`/etc/classroom-monitor/secrets/${variable}`);
        const source = volume.projected.sources.find((s) => s.secret.items[0].path === variable)!;
        const secret = secrets.find((s) => s.metadata.name === source.secret.name)!;
        expect(Object.keys(secret.stringData)).toContain(source.secret.items[0].key);
      }
    }
  });

  it('gives each service what it needs to start, read from those files', () => {
    const rendered = manifests();
    const secrets = ofKind<Secret>(rendered, 'Secret');
    const dir = mkdtempSync(path.join(tmpdir(), 'cm-chart-secrets-'));
    try {
      for (const service of services) {
        const { pod, container } = podOf(rendered, service);
        const volume = secretsVolumeOf(pod);
        // Lay the volume out as the kubelet would, in a directory of this test's own.
        const mounted = path.join(dir, service);
        mkdirSync(mounted);
        for (const { secret } of volume.projected.sources) {
          const value = secrets.find((s) => s.metadata.name === secret.name)!.stringData[secret.items[0].key];
          writeFileSync(path.join(mounted, secret.items[0].path), value);
        }
        const configMap = ofKind<Manifest & { data: Record<string, string> }>(rendered, 'ConfigMap').find(
          (m) => componentOf(m) === service,
        )!;
        const env = Object.fromEntries(
          Object.entries({ ...configMap.data, ...envOf(container) }).map(([name, value]) => [
            name,
            String(value).replace('/etc/classroom-monitor/secrets', mounted),
          ]),
        );
        expect(() => parseEnv(configSchemas[service], { NODE_ENV: 'production', ...env })).not.toThrow();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('two-factor sign-in', () => {
  const key = 'bm90LWEtcmVhbC10b3RwLWtleS1ub3QtYS1yZWFsISE=';

  it('keeps the TOTP key in a Secret (or an existing one), unset without one, and passes REQUIRE_ADMIN_TOTP', () => {
    const manifests = render([], [`auth.totp.secretKey=${key}`, 'gateway.login.requireAdminTotp=true']);
    expect(envOf(podOf(manifests, 'auth').container).AUTH_TOTP_KEY).toEqual({
      secretKeyRef: expect.objectContaining({ key: 'totp-key' }),
    });
    const credentials = ofKind<Secret>(manifests, 'Secret').find((s) =>
      s.metadata.name.endsWith('-credentials'),
    )!;
    expect(credentials.stringData).toMatchObject({ 'totp-key': key });
    const configMaps = ofKind<ConfigMap>(manifests, 'ConfigMap');
    for (const configMap of configMaps) expect(Object.values(configMap.data)).not.toContain(key);
    expect(configMaps.map((c) => c.data.REQUIRE_ADMIN_TOTP).filter(Boolean)).toEqual(['true']);

    const existing = render([], ['auth.totp.existingSecret=campus-totp']);
    expect(envOf(podOf(existing, 'auth').container).AUTH_TOTP_KEY).toEqual({
      secretKeyRef: { name: 'campus-totp', key: 'totp-key' },
    });
    const none = render([], []);
    expect(envOf(podOf(none, 'auth').container).AUTH_TOTP_KEY).toBeUndefined();
    expect(
      ofKind<ConfigMap>(none, 'ConfigMap')
        .map((c) => c.data.REQUIRE_ADMIN_TOTP)
        .filter(Boolean),
    ).toEqual(['false']);
  });
});

describe('notification secrets', () => {
  const key = 'bm90LWEtcmVhbC1rZXktbm90LWEtcmVhbC1rZXkhISE=';
  const inventoryEnv = (set: string[]) => envOf(podOf(render([], set), 'inventory').container);

  it('keep the webhook key and the SMTP password in a Secret, never in the ConfigMap', () => {
    const manifests = render(
      [],
      [
        `inventory.alerts.secretKey=${key}`,
        'inventory.alerts.smtp.host=smtp.campus.example',
        'inventory.alerts.smtp.from=av@campus.example',
        'inventory.alerts.smtp.user=cm',
        'inventory.alerts.smtp.password=not-a-real-password',
      ],
    );
    const env = envOf(podOf(manifests, 'inventory').container);
    expect(env.ALERTS_SECRET_KEY).toEqual({
      secretKeyRef: expect.objectContaining({ key: 'alerts-secret-key' }),
    });
    expect(env.SMTP_PASSWORD).toEqual({ secretKeyRef: expect.objectContaining({ key: 'smtp-password' }) });
    const credentials = ofKind<Secret>(manifests, 'Secret').find((s) =>
      s.metadata.name.endsWith('-credentials'),
    )!;
    expect(credentials.stringData).toMatchObject({
      'alerts-secret-key': key,
      'smtp-password': 'not-a-real-password',
    });
    for (const configMap of ofKind<ConfigMap>(manifests, 'ConfigMap'))
      expect(Object.values(configMap.data)).not.toContain('not-a-real-password');
  });

  it('take both from an existing Secret, and set neither when no channel kind is configured', () => {
    const env = inventoryEnv([
      'inventory.alerts.existingSecret=campus-alerts',
      'inventory.alerts.smtp.host=smtp.campus.example',
      'inventory.alerts.smtp.from=av@campus.example',
      'inventory.alerts.smtp.user=cm',
    ]);
    expect(env.ALERTS_SECRET_KEY).toEqual({
      secretKeyRef: { name: 'campus-alerts', key: 'alerts-secret-key' },
    });
    expect(env.SMTP_PASSWORD).toEqual({ secretKeyRef: { name: 'campus-alerts', key: 'smtp-password' } });
    const none = inventoryEnv([]);
    expect([none.ALERTS_SECRET_KEY, none.SMTP_PASSWORD]).toEqual([undefined, undefined]);
  });

  it('refuse SMTP without a sender', () => {
    expect(refusal(['inventory.alerts.smtp.host=smtp.campus.example'])).toContain(
      'inventory.alerts.smtp.from is required with inventory.alerts.smtp.host',
    );
  });
});
