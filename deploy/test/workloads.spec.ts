import { componentOf, type Manifest, render } from './support/helm';
import { deployments, envOf, ofKind, podOf, schemaProblems } from './support/kubernetes';
import { services } from './support/paths';

const deploymentOf = (manifests: Manifest[], component: string) =>
  deployments(manifests).find((d) => componentOf(d) === component)!;
const valid = (manifests: Manifest[]) =>
  manifests.flatMap((m) => schemaProblems(m).map((p) => `${m.kind} ${m.metadata.name}: ${p}`));

describe('escape hatches', () => {
  it("add env, envFrom, volumes, mounts and init containers to one component's pods", () => {
    const manifests = render(
      [],
      [
        'media.extraEnv[0].name=S3_SECRET_ACCESS_KEY_FILE',
        'media.extraEnv[0].value=/var/run/s3/secret-access-key',
        'media.extraEnvFrom[0].secretRef.name=campus-media-env',
        'media.extraVolumes[0].name=s3',
        'media.extraVolumes[0].secret.secretName=campus-s3',
        'media.extraVolumeMounts[0].name=s3',
        'media.extraVolumeMounts[0].mountPath=/var/run/s3',
        'media.extraVolumeMounts[0].readOnly=true',
        'media.initContainers[0].name=wait-for-store',
        'media.initContainers[0].image=registry.campus.example/tools:1',
      ],
    );
    expect(valid(manifests)).toEqual([]);
    const { pod, container } = podOf(manifests, 'media');
    expect(envOf(container).S3_SECRET_ACCESS_KEY_FILE).toBe('/var/run/s3/secret-access-key');
    expect(container.envFrom).toEqual([
      { configMapRef: { name: 'cm-classroom-monitor-media' } },
      { secretRef: { name: 'campus-media-env' } },
    ]);
    expect(pod.volumes).toContainEqual({ name: 's3', secret: { secretName: 'campus-s3' } });
    expect(container.volumeMounts).toContainEqual({ name: 's3', mountPath: '/var/run/s3', readOnly: true });
    // With the component's own security context and resources, as the namespace's policy wants.
    expect(pod.initContainers).toEqual([
      {
        name: 'wait-for-store',
        image: 'registry.campus.example/tools:1',
        securityContext: container.securityContext,
        resources: container.resources,
      },
    ]);
    // The others are untouched.
    const auth = podOf(manifests, 'auth');
    expect([auth.pod.initContainers, auth.container.volumeMounts]).toEqual([
      undefined,
      [{ name: 'tmp', mountPath: '/tmp' }],
    ]);
  });

  it('install extra objects, templated strings or plain objects', () => {
    const manifests = render(
      [],
      [
        'extraObjects[0]=apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "{{ .Release.Name }}-extra"\n  namespace: "{{ .Release.Namespace }}"\ndata:\n  a: b',
        'extraObjects[1].apiVersion=v1',
        'extraObjects[1].kind=ServiceAccount',
        'extraObjects[1].metadata.name=backup',
      ],
    );
    expect(manifests.find((m) => m.metadata.name === 'cm-extra')).toMatchObject({
      kind: 'ConfigMap',
      metadata: { namespace: 'campus' },
      data: { a: 'b' },
    });
    expect(manifests.find((m) => m.metadata.name === 'backup')).toMatchObject({ kind: 'ServiceAccount' });
  });

  it('mount a CA bundle read-only in every pod and have Node trust it', () => {
    const manifests = render([], ['caBundle.configMap=campus-ca', 'caBundle.key=root.pem']);
    expect(valid(manifests)).toEqual([]);
    for (const service of services) {
      const { pod, container } = podOf(manifests, service);
      expect(pod.volumes).toContainEqual({
        name: 'ca-bundle',
        configMap: { name: 'campus-ca', items: [{ key: 'root.pem', path: 'ca.crt' }] },
      });
      expect(container.volumeMounts).toContainEqual({
        name: 'ca-bundle',
        mountPath: '/etc/classroom-monitor/ca',
        readOnly: true,
      });
      expect(envOf(container).NODE_EXTRA_CA_CERTS).toBe('/etc/classroom-monitor/ca/ca.crt');
    }
    const fromSecret = podOf(render([], ['caBundle.secret=campus-ca']), 'gateway').pod;
    expect(fromSecret.volumes).toContainEqual({
      name: 'ca-bundle',
      secret: { secretName: 'campus-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
    });
    expect(() => render([], ['caBundle.configMap=a', 'caBundle.secret=b'])).toThrow(
      'caBundle.configMap and caBundle.secret are both set',
    );
  });
});

describe('scheduling', () => {
  it('prefers a node of its own and an even spread over zones for each replica, by default', () => {
    const manifests = render();
    for (const service of services) {
      const { pod } = podOf(manifests, service);
      const selector = { matchLabels: deploymentOf(manifests, service).spec.selector.matchLabels };
      expect(pod.affinity).toEqual({
        podAntiAffinity: {
          preferredDuringSchedulingIgnoredDuringExecution: [
            {
              weight: 100,
              podAffinityTerm: { topologyKey: 'kubernetes.io/hostname', labelSelector: selector },
            },
          ],
        },
      });
      expect(pod.topologySpreadConstraints).toEqual([
        {
          maxSkew: 1,
          topologyKey: 'topology.kubernetes.io/zone',
          whenUnsatisfiable: 'ScheduleAnyway',
          labelSelector: selector,
          matchLabelKeys: ['pod-template-hash'],
        },
      ]);
      expect(pod.priorityClassName).toBeUndefined();
      // New pods are ready before old ones stop.
      expect(deploymentOf(manifests, service).spec.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
      });
    }
  });

  it('takes affinity, spread constraints, a priority class and a strategy per component, or no spread', () => {
    const manifests = render(
      [],
      [
        'monitor.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].key=campus.example/network',
        'monitor.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].operator=Exists',
        'monitor.strategy.type=Recreate',
        'monitor.priorityClassName=campus-critical',
        'auth.spread.acrossNodes=false',
        'auth.spread.acrossZones=false',
        'inventory.topologySpreadConstraints[0].maxSkew=2',
        'inventory.topologySpreadConstraints[0].topologyKey=kubernetes.io/hostname',
        'inventory.topologySpreadConstraints[0].whenUnsatisfiable=DoNotSchedule',
      ],
    );
    expect(valid(manifests)).toEqual([]);
    const monitor = podOf(manifests, 'monitor').pod;
    expect(Object.keys(monitor.affinity!)).toEqual(['nodeAffinity']);
    expect(monitor.priorityClassName).toBe('campus-critical');
    expect(deploymentOf(manifests, 'monitor').spec.strategy).toEqual({ type: 'Recreate' });
    const auth = podOf(manifests, 'auth').pod;
    expect([auth.affinity, auth.topologySpreadConstraints]).toEqual([undefined, undefined]);
    expect(podOf(manifests, 'inventory').pod.topologySpreadConstraints).toEqual([
      { maxSkew: 2, topologyKey: 'kubernetes.io/hostname', whenUnsatisfiable: 'DoNotSchedule' },
    ]);
    expect(podOf(manifests, 'gateway').pod.priorityClassName).toBeUndefined();
  });

  it('keeps the stopping gateway serving, not ready, for the delay, inside its grace period', () => {
    const gatewayConfig = (set: string[]) =>
      (ofKind(render([], set), 'ConfigMap').find((m) => componentOf(m) === 'gateway') as Manifest & {
        data: Record<string, string>;
      })!.data;
    expect(gatewayConfig([])).toMatchObject({ SHUTDOWN_DELAY_MS: '5000', SHUTDOWN_TIMEOUT_MS: '25000' });
    expect(podOf(render(), 'gateway').pod.terminationGracePeriodSeconds).toBe(30);
    expect(
      gatewayConfig(['gateway.shutdownDelaySeconds=15', 'gateway.terminationGracePeriodSeconds=40']),
    ).toMatchObject({ SHUTDOWN_DELAY_MS: '15000', SHUTDOWN_TIMEOUT_MS: '35000' });
    expect(() => render([], ['gateway.shutdownDelaySeconds=25'])).toThrow(
      'gateway.terminationGracePeriodSeconds (30) must exceed gateway.shutdownDelaySeconds (25) by 10 s or more',
    );
  });
});

describe('images', () => {
  const digest = `sha256:${'4f1c'.repeat(16)}`;

  it('pins a component to a digest, the others keep the tag', () => {
    const manifests = render([], [`media.image.digest=${digest}`, 'image.tag=1.2.3']);
    const images = Object.fromEntries(services.map((s) => [s, podOf(manifests, s).container.image]));
    expect(images).toEqual({
      gateway: 'classroom-monitor/gateway:1.2.3',
      auth: 'classroom-monitor/auth:1.2.3',
      inventory: 'classroom-monitor/inventory:1.2.3',
      media: `classroom-monitor/media@${digest}`,
      monitor: 'classroom-monitor/monitor:1.2.3',
    });
  });
});
