import { componentOf, type Manifest, render, valueSets } from './support/helm';
import {
  type Container,
  deployments,
  type DeploymentManifest,
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
