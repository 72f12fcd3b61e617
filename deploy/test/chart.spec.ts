import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MAX_UPLOAD_BYTES } from '../../libs/contracts/src/media';
import { durableConsumers, streams } from '../../libs/contracts/src/jetstream-names';
import { namespacedName } from '../../libs/contracts/src/namespace';
import { natsAuthorizationConfig, natsPermissions } from '../../libs/contracts/src/nats-permissions';
import { componentOf, helm, type Manifest, releaseNamespace, render, valueSets } from './support/helm';
import { deployments, matches, ofKind, schemaProblems } from './support/kubernetes';
import { services } from './support/paths';

/** A component's own Service, as opposed to the gateway's metrics-only one. */
const servesHttp = (m: Manifest) =>
  (m.spec as { ports: { name: string }[] }).ports.some((p) => p.name === 'http');

describe('classroom-monitor chart', () => {
  it.each(valueSets)('passes helm lint --strict with $name', ({ files }) => {
    const { status, stdout, stderr } = helm([
      'lint',
      '--strict',
      '.',
      ...files.flatMap((f) => ['--values', f]),
    ]);
    expect({ status, output: stdout + stderr }).toMatchObject({ status: 0 });
  });

  describe.each(valueSets)('rendered with $name', ({ files }) => {
    let manifests: Manifest[];
    beforeAll(() => {
      manifests = render(files);
    });

    it('renders only objects that are valid against the Kubernetes and KEDA schemas', () => {
      const problems = manifests.flatMap((m) =>
        schemaProblems(m).map((p) => `${m.kind} ${m.metadata.name}: ${p}`),
      );
      expect(problems).toEqual([]);
      expect(manifests.length).toBeGreaterThan(20);
    });

    it('gives each service its Deployment, Service, ServiceAccount and ConfigMap', () => {
      for (const kind of ['Deployment', 'Service', 'ServiceAccount', 'ConfigMap']) {
        const objects =
          kind === 'Service' ? ofKind(manifests, kind).filter(servesHttp) : ofKind(manifests, kind);
        expect(objects.map(componentOf).sort()).toEqual([...services].sort());
      }
    });

    it('names every object uniquely, in the release namespace, with the common labels', () => {
      const keys = manifests.map((m) => `${m.kind}/${m.metadata.name}`);
      expect(new Set(keys).size).toBe(keys.length);
      for (const m of manifests) {
        expect(m.metadata.namespace).toBe(releaseNamespace);
        expect(m.metadata.labels).toMatchObject({
          'app.kubernetes.io/instance': 'cm',
          'app.kubernetes.io/part-of': 'classroom-monitor',
          'app.kubernetes.io/managed-by': 'Helm',
        });
        expect(m.metadata.name.length).toBeLessThanOrEqual(63);
      }
    });

    it('selects each Deployment with exactly one Service serving it, and with at most one PDB and NetworkPolicy', () => {
      const selectorOf = (m: Manifest) => {
        const spec = m.spec as {
          selector?: Record<string, string> & { matchLabels?: Record<string, string> };
          podSelector?: { matchLabels: Record<string, string> };
        };
        if (m.kind === 'Service') return spec.selector!;
        return spec.selector?.matchLabels ?? spec.podSelector!.matchLabels;
      };
      for (const deployment of deployments(manifests)) {
        const podLabels = deployment.spec.template.metadata.labels;
        expect(matches(deployment.spec.selector.matchLabels, podLabels)).toBe(true);
        const count = (kind: string) =>
          ofKind(manifests, kind).filter((m) => matches(selectorOf(m), podLabels)).length;
        expect(
          ofKind(manifests, 'Service').filter((m) => servesHttp(m) && matches(selectorOf(m), podLabels)),
        ).toHaveLength(1);
        expect(count('PodDisruptionBudget')).toBeLessThanOrEqual(1);
        expect(count('NetworkPolicy')).toBeLessThanOrEqual(1);
        if (files.length === 0)
          expect([count('PodDisruptionBudget'), count('NetworkPolicy')]).toEqual([1, 1]);
      }
    });

    it('runs each pod as its own ServiceAccount, from a ConfigMap that exists, with Secrets the chart makes or the values name', () => {
      const names = (kind: string) => ofKind(manifests, kind).map((m) => m.metadata.name);
      const chartSecrets = ofKind(manifests, 'Secret') as (Manifest & {
        stringData: Record<string, string>;
      })[];
      for (const deployment of deployments(manifests)) {
        const pod = deployment.spec.template.spec;
        expect(names('ServiceAccount')).toContain(pod.serviceAccountName);
        for (const container of pod.containers) {
          for (const source of container.envFrom ?? [])
            expect(names('ConfigMap')).toContain(source.configMapRef?.name);
          for (const { valueFrom } of container.env ?? []) {
            const ref = valueFrom?.secretKeyRef;
            if (!ref) continue;
            const chartSecret = chartSecrets.find((s) => s.metadata.name === ref.name);
            if (chartSecret) expect(Object.keys(chartSecret.stringData)).toContain(ref.key);
            // The defaults name no credentials (NOTES.txt lists what is missing); every other
            // reference is to a Secret the values name as existing.
            else if (files.length > 0) expect(ref.name).not.toMatch(/-credentials$/);
          }
        }
      }
    });

    it('autoscales only the gateway (on CPU) and inventory (on its lag), and leaves their replica count to the autoscaler', () => {
      const scalers = [...ofKind(manifests, 'HorizontalPodAutoscaler'), ...ofKind(manifests, 'ScaledObject')];
      for (const scaler of scalers) {
        expect(`${scaler.kind} ${componentOf(scaler)}`).toMatch(
          /^(HorizontalPodAutoscaler gateway|ScaledObject inventory)$/,
        );
        const target = (scaler.spec as { scaleTargetRef: { name: string } }).scaleTargetRef.name;
        const deployment = deployments(manifests).find((d) => d.metadata.name === target);
        expect(deployment?.spec.replicas).toBeUndefined();
      }
    });

    it('runs the monitor at a fixed count its PodDisruptionBudget can protect', () => {
      const monitor = deployments(manifests).find((d) => componentOf(d) === 'monitor')!;
      const budget = ofKind(manifests, 'PodDisruptionBudget').find((m) => componentOf(m) === 'monitor') as
        (Manifest & { spec: { maxUnavailable: number } }) | undefined;
      expect(monitor.spec.replicas).toBeGreaterThanOrEqual(2);
      // A budget over a single replica lets a drain take it: the sweeps stop until it is back.
      if (budget) expect(monitor.spec.replicas).toBeGreaterThan(budget.spec.maxUnavailable);
    });
  });

  it('renders an Ingress with TLS, the gateway autoscaler and exported traces when the values ask for them', () => {
    const manifests = render(['ci/inline-credentials-values.yaml']);
    const [ingress] = ofKind(manifests, 'Ingress') as (Manifest & {
      spec: { tls: { secretName: string }[] };
    })[];
    expect(ingress.spec.tls).toEqual([
      { hosts: ['classroom-monitor.campus.example'], secretName: 'classroom-monitor-tls' },
    ]);
    // The live stream (GET /api/events) goes through ingress-nginx unbuffered and stays open.
    expect(ingress.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/proxy-buffering': 'off',
      'nginx.ingress.kubernetes.io/proxy-read-timeout': '3600',
    });
    expect(ofKind(manifests, 'HorizontalPodAutoscaler').map(componentOf)).toEqual(['gateway']);
    const gatewayConfig = ofKind(manifests, 'ConfigMap').find(
      (m) => componentOf(m) === 'gateway',
    ) as Manifest & {
      data: Record<string, string>;
    };
    expect(gatewayConfig.data).toMatchObject({
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability.svc:4318',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
  });

  it("lets the values' own Ingress annotations win over the streaming ones, and drop them", () => {
    const annotationsOf = (sets: string[]) =>
      (ofKind(render(['ci/inline-credentials-values.yaml'], sets), 'Ingress')[0] as Manifest).metadata
        .annotations ?? {};
    const own = annotationsOf([
      'gateway.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-buffering=on',
    ]);
    expect(own['nginx.ingress.kubernetes.io/proxy-buffering']).toBe('on');
    expect(own['nginx.ingress.kubernetes.io/proxy-read-timeout']).toBe('3600');
    const without = annotationsOf(['gateway.ingress.streaming=false']);
    expect(Object.keys(without)).toEqual([
      'cert-manager.io/cluster-issuer',
      'nginx.ingress.kubernetes.io/proxy-body-size',
    ]);
  });

  it('lets the largest upload through ingress-nginx (1 MB by default), unless the values set their own limit', () => {
    const bodySizeOf = (sets: string[]) =>
      (ofKind(render([], ['gateway.ingress.enabled=true', ...sets]), 'Ingress')[0] as Manifest).metadata
        .annotations?.['nginx.ingress.kubernetes.io/proxy-body-size'];
    const size = bodySizeOf([]) ?? '';
    expect(size).toMatch(/^\d+m$/);
    // nginx's `m` is MiB; the multipart envelope around the file is allowed 64 KiB by the gateway.
    const needed = MAX_UPLOAD_BYTES + 64 * 1024;
    expect(parseInt(size, 10) * 1024 * 1024).toBeGreaterThanOrEqual(needed);
    expect(parseInt(size, 10) * 1024 * 1024 - needed).toBeLessThan(1024 * 1024);
    expect(
      bodySizeOf(['gateway.ingress.annotations.nginx\\.ingress\\.kubernetes\\.io/proxy-body-size=100m']),
    ).toBe('100m');
  });

  it('renders no Ingress, autoscaler or ScaledObject by default', () => {
    const kinds = render().map((m) => m.kind);
    expect(kinds).not.toContain('Ingress');
    expect(kinds).not.toContain('HorizontalPodAutoscaler');
    expect(kinds).not.toContain('ScaledObject');
  });

  it('lists the missing credentials after an install with the default values', () => {
    const { status, stdout } = helm([
      'install',
      'cm',
      '.',
      '--dry-run=client',
      '--namespace',
      releaseNamespace,
      // A client dry run has no cluster to keep generated secrets in (secrets.spec.ts).
      '--set',
      'allowGeneratedSecretsWithoutCluster=true',
    ]);
    expect(status).toBe(0);
    const notes = stdout.slice(stdout.indexOf('NOTES:'));
    for (const missing of ['postgresql.url or postgresql.existingSecret', 's3.endpoint', 's3.accessKeyId']) {
      expect(notes).toContain(`  - ${missing}`);
    }
    const complete = helm([
      'install',
      'cm',
      '.',
      '--dry-run=client',
      '--values',
      'ci/keda-values.yaml',
      '--set',
      'allowGeneratedSecretsWithoutCluster=true',
    ]);
    expect(complete.status).toBe(0);
    expect(complete.stdout).not.toContain('WARNING');
  });

  it('scales inventory with KEDA on the pending count of its status consumer, as inventory names them', () => {
    const [scaler] = ofKind(render(['ci/keda-values.yaml']), 'ScaledObject') as (Manifest & {
      spec: { minReplicaCount: number; maxReplicaCount: number; triggers: unknown[] };
    })[];
    expect(componentOf(scaler)).toBe('inventory');
    expect(scaler.spec).toMatchObject({ minReplicaCount: 2, maxReplicaCount: 4 });
    expect(scaler.spec.triggers).toEqual([
      {
        type: 'nats-jetstream',
        metadata: {
          natsServerMonitoringEndpoint: 'nats.messaging.svc:8222',
          useHttps: 'false',
          account: '$G',
          stream: namespacedName('campus', streams.status.name),
          consumer: durableConsumers.inventoryStatus,
          lagThreshold: '200',
          activationLagThreshold: '50',
        },
      },
    ]);
  });

  it.each([
    [
      'KEDA without the NATS monitoring endpoint',
      ['inventory.keda.enabled=true'],
      /natsServerMonitoringEndpoint is required/,
    ],
    [
      'a KEDA minimum above its maximum',
      [
        'inventory.keda.enabled=true',
        'inventory.keda.natsServerMonitoringEndpoint=nats:8222',
        'inventory.keda.minReplicaCount=7',
      ],
      /minReplicaCount must not exceed/,
    ],
    ['a monitor without replicas', ['monitor.replicaCount=0'], /replicaCount/],
    [
      'a monitor autoscaler',
      ['monitor.autoscaling.enabled=true'],
      /additional properties 'autoscaling' not allowed/,
    ],
  ])('refuses %s', (_what, set, message) => {
    expect(() => render([], set)).toThrow(message);
  });

  it('rolls the pods of a component when its configuration changes, and only those', () => {
    const checksums = (manifests: Manifest[]) =>
      Object.fromEntries(
        deployments(manifests).map((d) => [
          componentOf(d),
          (d.spec.template as unknown as { metadata: { annotations: Record<string, string> } }).metadata
            .annotations['checksum/config'],
        ]),
      );
    const before = checksums(render());
    const after = checksums(render([], ['auth.admin.username=avadmin']));
    expect(Object.keys(before).filter((c) => before[c] !== after[c])).toEqual(['auth']);
  });

  describe('NATS users', () => {
    type Secret = Manifest & { stringData: Record<string, string> };
    const natsSecret = (manifests: Manifest[]) =>
      (ofKind(manifests, 'Secret') as Secret[]).find((s) => componentOf(s) === 'nats-auth');
    const natsEnv = (manifests: Manifest[]) =>
      Object.fromEntries(
        deployments(manifests).map((d) => {
          const env = d.spec.template.spec.containers[0].env ?? [];
          return [componentOf(d), Object.fromEntries(env.map((e) => [e.name, e.value ?? e.valueFrom]))];
        }),
      );

    it('keeps the permissions it renders the same as the message registry gives', () => {
      const file = path.join(__dirname, '../helm/classroom-monitor/files/nats-permissions.json');
      expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual(natsPermissions('__NS__'));
    });

    it('logs each service in as its own user, with the password the users block holds for it', () => {
      const manifests = render([], ['cmNamespace=campus']);
      const secret = natsSecret(manifests)!;
      const env = natsEnv(manifests);
      for (const service of services) {
        expect(env[service].NATS_USER).toBe(`campus-${service}`);
        expect(env[service].NATS_PASSWORD).toEqual({
          secretKeyRef: { name: secret.metadata.name, key: `${service}-password` },
        });
        expect(secret.stringData[`${service}-password`]).toMatch(/^[A-Za-z0-9]{32}$/);
      }
      expect(secret.stringData['authorization.conf']).toBe(
        natsAuthorizationConfig('campus', (p) => JSON.stringify(secret.stringData[`${p}-password`])),
      );
    });

    it('renders a users block that nats-server accepts', () => {
      const conf = natsSecret(render())!.stringData['authorization.conf'];
      const dir = mkdtempSync(path.join(tmpdir(), 'cm-chart-nats-'));
      try {
        writeFileSync(path.join(dir, 'nats.conf'), conf);
        const result = spawnSync('/usr/sbin/nats-server', ['-t', '-c', path.join(dir, 'nats.conf')], {
          encoding: 'utf8',
        });
        expect({ status: result.status, output: result.stdout + result.stderr }).toMatchObject({ status: 0 });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    it('takes the passwords from an existing Secret, or runs without NATS users when told to', () => {
      const existing = render([], ['nats.auth.existingSecret=campus-nats']);
      expect(natsSecret(existing)).toBeUndefined();
      expect(natsEnv(existing).monitor.NATS_PASSWORD).toEqual({
        secretKeyRef: { name: 'campus-nats', key: 'monitor-password' },
      });
      const off = render([], ['nats.auth.enabled=false']);
      expect(natsSecret(off)).toBeUndefined();
      expect(natsEnv(off).gateway.NATS_USER).toBeUndefined();
    });
  });

  it('serves the gateway metrics on a port of its own, announced to scrapers and closed to the public', () => {
    const manifests = render(['ci/inline-credentials-values.yaml']);
    const gateway = deployments(manifests).find((d) => componentOf(d) === 'gateway')!;
    const template = gateway.spec.template as unknown as {
      metadata: { annotations: Record<string, string> };
      spec: { containers: { ports: { name: string; containerPort: number }[] }[] };
    };
    expect(template.spec.containers[0].ports).toContainEqual({
      name: 'metrics',
      containerPort: 9100,
      protocol: 'TCP',
    });
    expect(template.metadata.annotations).toMatchObject({
      'prometheus.io/scrape': 'true',
      'prometheus.io/port': '9100',
    });
    const config = ofKind(manifests, 'ConfigMap').find((m) => componentOf(m) === 'gateway') as Manifest & {
      data: Record<string, string>;
    };
    expect(config.data).toMatchObject({ METRICS_PORT: '9100', METRICS_HOST: '0.0.0.0' });
    const policy = ofKind(manifests, 'NetworkPolicy').find(
      (m) => componentOf(m) === 'gateway',
    ) as Manifest & {
      spec: { ingress: { ports: { port: string }[]; from?: unknown[] }[] };
    };
    const rules = policy.spec.ingress.map((r) => [r.ports[0].port, r.from ?? 'anywhere']);
    // Only the scrapers of networkPolicy.probeFrom reach the metrics port.
    expect(rules).toEqual([
      ['http', expect.any(Array)],
      ['metrics', [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]],
    ]);
    const defaults = ofKind(render(), 'NetworkPolicy').find(
      (m) => componentOf(m) === 'gateway',
    ) as typeof policy;
    expect(defaults.spec.ingress.map((r) => r.ports[0].port)).toEqual(['http']);
  });

  it('always sets PUBLIC_ORIGIN, from the Ingress host when not given, as production requires it', () => {
    const originOf = (set: string[]) =>
      (
        ofKind(render([], set), 'ConfigMap').find((m) => componentOf(m) === 'gateway') as Manifest & {
          data: Record<string, string>;
        }
      ).data.PUBLIC_ORIGIN;
    expect(originOf([])).toBe('http://classroom-monitor.campus.example');
    expect(originOf(['gateway.ingress.tls.enabled=true'])).toBe('https://classroom-monitor.campus.example');
    expect(originOf(['gateway.publicOrigin=https://av.campus.edu'])).toBe('https://av.campus.edu');
    // Without a host there is no origin to derive: the chart refuses rather than leave it unset.
    expect(() => render([], ['gateway.ingress.host='])).toThrow(/gateway\/ingress\/host/);
  });

  it("gives the gateway the store's address as media has it, and S3_PUBLIC_ENDPOINT only when s3.publicEndpoint is set", () => {
    const configOf = (manifests: Manifest[], component: string) =>
      (
        ofKind(manifests, 'ConfigMap').find((m) => componentOf(m) === component) as Manifest & {
          data: Record<string, string>;
        }
      ).data;
    const store = ['S3_ENDPOINT', 'S3_PUBLIC_ENDPOINT', 'S3_BUCKET', 'S3_FORCE_PATH_STYLE'];
    const pick = (data: Record<string, string>) =>
      Object.fromEntries(store.filter((name) => name in data).map((name) => [name, data[name]]));

    // Without a public address browsers upload through the gateway, which forwards to the store.
    const internal = render(['ci/keda-values.yaml'], ['s3.bucket=campus-media']);
    expect(pick(configOf(internal, 'gateway'))).toEqual({
      S3_ENDPOINT: 'http://minio:9000',
      S3_BUCKET: 'campus-media',
      S3_FORCE_PATH_STYLE: 'true',
    });
    expect(pick(configOf(internal, 'media'))).toEqual(pick(configOf(internal, 'gateway')));

    const published = render(['ci/inline-credentials-values.yaml']);
    expect(pick(configOf(published, 'gateway'))).toMatchObject({
      S3_ENDPOINT: 'http://minio.storage.svc:9000',
      S3_PUBLIC_ENDPOINT: 'https://files.campus.example',
    });
    expect(pick(configOf(published, 'media'))).toEqual(pick(configOf(published, 'gateway')));
  });
});
