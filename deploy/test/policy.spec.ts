import { componentOf, type Manifest, releaseNamespace, render, valueSets } from './support/helm';
import {
  type Container,
  deployments,
  type DeploymentManifest,
  ofKind,
  type Probe,
  restrictedContainerSecurityContext,
} from './support/kubernetes';

// The one component allowed an added capability: raw ICMP sockets for the pings.
const netRawComponent = 'monitor';

const probePath = (probe?: Probe) => probe?.httpGet?.path;

describe.each(valueSets)('pod policy, rendered with $name', ({ files }) => {
  let pods: { component: string; deployment: DeploymentManifest; containers: Container[] }[];
  beforeAll(() => {
    pods = deployments(render(files)).map((deployment) => ({
      component: componentOf(deployment as Manifest),
      deployment,
      containers: [
        ...deployment.spec.template.spec.containers,
        ...(deployment.spec.template.spec.initContainers ?? []),
      ],
    }));
    expect(pods).toHaveLength(5);
  });

  it('gives every container liveness, readiness and startup probes, liveness and readiness on different endpoints', () => {
    for (const { deployment } of pods) {
      // Init containers run to completion before these start: Kubernetes allows them no probes.
      for (const c of deployment.spec.template.spec.containers) {
        expect({ container: c.name, liveness: probePath(c.livenessProbe) }).toEqual({
          container: c.name,
          liveness: expect.stringMatching(/\/healthz$/),
        });
        // The process's own readiness, never /api/status/system: another service being away
        // must not take every gateway pod out of the Service.
        expect(probePath(c.readinessProbe)).toMatch(c.name === 'gateway' ? /^\/api\/readyz$/ : /^\/readyz$/);
        expect(probePath(c.startupProbe)).toBe(probePath(c.livenessProbe));
        for (const probe of [c.livenessProbe, c.readinessProbe, c.startupProbe]) {
          expect(c.ports?.map((p) => p.name)).toContain(probe?.httpGet?.port);
        }
      }
    }
  });

  it('gives every container CPU and memory requests and limits', () => {
    for (const { containers } of pods) {
      for (const c of containers) {
        for (const bound of ['requests', 'limits'] as const) {
          expect({ container: c.name, bound, keys: Object.keys(c.resources?.[bound] ?? {}).sort() }).toEqual({
            container: c.name,
            bound,
            keys: ['cpu', 'memory'],
          });
        }
      }
    }
  });

  it('runs every pod but the monitor under the restricted Pod Security profile, non-root', () => {
    for (const { component, deployment, containers } of pods.filter((p) => p.component !== netRawComponent)) {
      const pod = deployment.spec.template.spec;
      expect({ component, pod: pod.securityContext }).toMatchObject({
        component,
        pod: { runAsNonRoot: true, seccompProfile: { type: 'RuntimeDefault' } },
      });
      expect(pod.securityContext?.runAsUser).toBeGreaterThan(0);
      for (const c of containers) {
        expect(c.securityContext).toEqual(restrictedContainerSecurityContext);
      }
    }
  });

  it('runs the monitor with every capability dropped but NET_RAW, and otherwise locked down', () => {
    const monitor = pods.find((p) => p.component === netRawComponent)!;
    expect(monitor.deployment.spec.template.spec.securityContext?.seccompProfile).toEqual({
      type: 'RuntimeDefault',
    });
    for (const c of monitor.containers) {
      expect(c.securityContext).toMatchObject({
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'], add: ['NET_RAW'] },
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(c.securityContext?.privileged).toBeUndefined();
    }
  });

  it('adds a capability to no container but the monitor', () => {
    const adding = pods.flatMap(({ component, containers }) =>
      containers.filter((c) => c.securityContext?.capabilities?.add?.length).map(() => component),
    );
    expect(adding).toEqual([netRawComponent]);
  });

  it('shares nothing of the node, and mounts no API token but where auth generates the first password', () => {
    for (const { component, deployment, containers } of pods) {
      // Without ADMIN_PASSWORD auth writes the generated one to a Secret through the API.
      const generates = component === 'auth' && !containers[0].env?.some((e) => e.name === 'ADMIN_PASSWORD');
      const pod = deployment.spec.template.spec;
      expect(pod.hostNetwork).toBeUndefined();
      expect(pod.hostPID).toBeUndefined();
      expect({ component, token: pod.automountServiceAccountToken }).toEqual({
        component,
        token: generates,
      });
    }
  });

  it('gives the read-only containers a writable /tmp, and nothing of the node', () => {
    for (const { deployment } of pods) {
      const [tmp, ...others] = deployment.spec.template.spec.volumes ?? [];
      expect(tmp).toEqual({ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } });
      // Besides, only what the values ask for: a CA bundle, a creds file, extraVolumes.
      if (files.length === 0) expect(others).toEqual([]);
      expect(others.filter((v) => 'hostPath' in v)).toEqual([]);
    }
  });

  it('pulls each component from its own image, by tag or digest', () => {
    for (const { component, deployment } of pods) {
      expect(deployment.spec.template.spec.containers[0].image).toMatch(
        new RegExp(`/${component}(:[\\w.-]+|@sha256:[a-f0-9]{64})$`),
      );
    }
  });
});

describe('the monitor in a namespace of its own (monitor.namespace)', () => {
  const own = 'campus-probe';
  let manifests: Manifest[];
  beforeAll(() => {
    manifests = render([], [`monitor.namespace=${own}`, 'metrics.serviceMonitor.enabled=true']);
  });
  const namespaceOf = (m: Manifest) => m.metadata.namespace;

  it("puts only the monitor's workload there, so that the release namespace can enforce restricted", () => {
    const moved = manifests.filter((m) => namespaceOf(m) === own);
    expect(moved.map((m) => [m.kind, componentOf(m)]).sort()).toEqual(
      [
        ['ConfigMap', 'monitor'],
        ['Deployment', 'monitor'],
        ['NetworkPolicy', 'monitor'],
        ['PodDisruptionBudget', 'monitor'],
        ['Secret', 'monitor'],
        ['Service', 'monitor'],
        ['ServiceAccount', 'monitor'],
      ].sort(),
    );
    const rest = manifests.filter((m) => namespaceOf(m) !== own);
    expect(new Set(rest.map(namespaceOf))).toEqual(new Set([releaseNamespace]));
    for (const deployment of deployments(rest)) {
      const pod = deployment.spec.template.spec;
      expect([componentOf(deployment), pod.securityContext?.runAsNonRoot]).toEqual([
        componentOf(deployment),
        true,
      ]);
      for (const c of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(c.securityContext).toEqual(restrictedContainerSecurityContext);
      }
    }
    // Scraped where it runs.
    const scrape = ofKind(manifests, 'ServiceMonitor').find(
      (m) => componentOf(m) === 'monitor',
    ) as Manifest & {
      spec: { namespaceSelector: { matchNames: string[] } };
    };
    expect(scrape.spec.namespaceSelector.matchNames).toEqual([own]);
  });

  it('logs the monitor in to NATS with the password the release holds for it, from a Secret of its namespace', () => {
    const [monitor] = deployments(manifests).filter((d) => componentOf(d) === 'monitor');
    const container = monitor.spec.template.spec.containers[0];
    const ref = container.env?.find((e) => e.name === 'NATS_PASSWORD')?.valueFrom?.secretKeyRef;
    const secrets = ofKind(manifests, 'Secret') as (Manifest & { stringData: Record<string, string> })[];
    const copy = secrets.find((s) => s.metadata.name === ref?.name && namespaceOf(s) === own);
    const original = secrets.find(
      (s) => namespaceOf(s) === releaseNamespace && s.stringData?.['authorization.conf'] !== undefined,
    );
    expect(copy?.stringData[ref!.key]).toBeTruthy();
    expect(copy?.stringData[ref!.key]).toBe(original?.stringData['monitor-password']);
    const configMaps = ofKind(manifests, 'ConfigMap').filter((m) => namespaceOf(m) === own);
    for (const from of container.envFrom ?? []) {
      expect(configMaps.map((m) => m.metadata.name)).toContain(from.configMapRef?.name);
    }
  });
});
