import { componentOf, type Manifest, render, valueSets } from './support/helm';
import { type Container, deployments, type DeploymentManifest, type Probe } from './support/kubernetes';

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
    for (const { containers } of pods) {
      for (const c of containers) {
        expect({ container: c.name, liveness: probePath(c.livenessProbe) }).toEqual({
          container: c.name,
          liveness: expect.stringMatching(/\/healthz$/),
        });
        expect(probePath(c.readinessProbe)).toMatch(/\/readyz$/);
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
        expect(c.securityContext).toEqual({
          runAsNonRoot: true,
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
          seccompProfile: { type: 'RuntimeDefault' },
        });
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

  it('shares nothing of the node and mounts no API token', () => {
    for (const { deployment } of pods) {
      const pod = deployment.spec.template.spec;
      expect(pod.hostNetwork).toBeUndefined();
      expect(pod.hostPID).toBeUndefined();
      expect(pod.automountServiceAccountToken).toBe(false);
    }
  });

  it('gives the read-only containers a writable /tmp and nothing else', () => {
    for (const { deployment } of pods) {
      expect(deployment.spec.template.spec.volumes).toEqual([
        { name: 'tmp', emptyDir: { sizeLimit: '64Mi' } },
      ]);
    }
  });

  it('pulls each component from its own image', () => {
    for (const { component, containers } of pods) {
      expect(containers[0].image).toMatch(new RegExp(`/${component}:[\\w.-]+$`));
    }
  });
});
