import { migrateEnvSchema } from '../../libs/platform/src/database';
import { configSchemas, variablesRead } from './support/config-schemas';
import { componentOf, type Manifest, render, valueSets } from './support/helm';
import {
  type Container,
  deployments,
  ofKind,
  type PodSpec,
  restrictedContainerSecurityContext,
} from './support/kubernetes';
import { services } from './support/paths';

interface JobManifest extends Manifest {
  metadata: Manifest['metadata'] & { annotations?: Record<string, string> };
  spec: {
    activeDeadlineSeconds?: number;
    backoffLimit?: number;
    template: { metadata: { labels: Record<string, string> }; spec: PodSpec & { restartPolicy?: string } };
  };
}
type SecretManifest = Manifest & {
  metadata: Manifest['metadata'] & { annotations?: Record<string, string> };
  stringData: Record<string, string>;
};

/** The services that own a schema: those that read DATABASE_URL. */
const schemaOwners = services.filter((s) => variablesRead(configSchemas[s]).includes('DATABASE_URL'));
const inline = ['postgresql.url=postgres://cm:secret@db.campus.example:5432/classroom_monitor'];

const jobs = (manifests: Manifest[]) => ofKind<JobManifest>(manifests, 'Job');
const hookSecrets = (manifests: Manifest[]) =>
  ofKind<SecretManifest>(manifests, 'Secret').filter((s) => s.metadata.annotations?.['helm.sh/hook']);
const containersOf = (job: JobManifest): Container[] => [
  ...(job.spec.template.spec.initContainers ?? []),
  ...job.spec.template.spec.containers,
];
const envOf = (container: Container) => Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));
const configMapEnv = (manifests: Manifest[], component: string) =>
  ofKind<Manifest & { data: Record<string, string> }>(manifests, 'ConfigMap').find(
    (m) => componentOf(m) === component,
  )!.data;

describe('schema migrations in the chart', () => {
  it('are the gateway, auth, inventory and media: the services with a schema', () => {
    expect(schemaOwners).toEqual(['gateway', 'auth', 'inventory', 'media']);
  });

  describe.each(valueSets)('rendered with $name', ({ files }) => {
    it('run before the release as one hook Job, removed once it succeeded and replaced by the next', () => {
      const [job, ...more] = jobs(render(files));
      expect(more).toEqual([]);
      expect(componentOf(job)).toBe('migrations');
      expect(job.metadata.annotations).toMatchObject({
        'helm.sh/hook': 'pre-install,pre-upgrade',
        'helm.sh/hook-weight': '0',
        'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
      });
      expect(job.spec).toMatchObject({ activeDeadlineSeconds: 300, backoffLimit: 1 });
      expect(job.spec.template.spec.restartPolicy).toBe('Never');
    });

    it("migrate each schema in turn from its service's image, with `main.js migrate` and only what that reads", () => {
      const [job] = jobs(render(files));
      const containers = containersOf(job);
      expect(containers.map((c) => c.name)).toEqual(schemaOwners);
      const read = variablesRead(migrateEnvSchema);
      for (const c of containers) {
        expect(c.image).toMatch(new RegExp(`/${c.name}(:[\\w.-]+|@sha256:[0-9a-f]{64})$`));
        expect((c as Container & { command?: string[] }).command).toEqual([
          'node',
          'dist/main.js',
          'migrate',
        ]);
        // NODE_EXTRA_CA_CERTS is Node's own, set with a CA bundle (hardened values).
        expect(
          Object.keys(envOf(c))
            .filter((n) => n !== 'NODE_EXTRA_CA_CERTS')
            .sort(),
        ).toEqual(read);
        expect(envOf(c).DATABASE_MIGRATE_TIMEOUT_MS.value).toBe('300000');
      }
    });

    it('run locked down like the pods: restricted profile, non-root, read-only root, no token', () => {
      const [job] = jobs(render(files));
      const pod = job.spec.template.spec;
      expect(pod.securityContext).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      });
      expect(pod.automountServiceAccountToken).toBe(false);
      // Writable: only /tmp (the CA bundle, when there is one, is mounted read-only).
      expect(pod.volumes).toContainEqual({ name: 'tmp', emptyDir: { sizeLimit: '64Mi' } });
      expect(pod.volumes?.filter((v) => v.name !== 'ca-bundle')).toHaveLength(1);
      for (const c of containersOf(job)) {
        expect(c.securityContext).toEqual(restrictedContainerSecurityContext);
        expect(c.resources).toEqual({
          requests: { cpu: '50m', memory: '128Mi' },
          limits: { cpu: '1', memory: '256Mi' },
        });
      }
    });

    it('leave the migrating to the Job: every service with a schema waits for it, within its startup window', () => {
      const manifests = render(files);
      for (const deployment of deployments(manifests).filter((d) =>
        schemaOwners.includes(componentOf(d) as never),
      )) {
        const env = configMapEnv(manifests, componentOf(deployment));
        expect({ component: componentOf(deployment), mode: env.DATABASE_MIGRATIONS }).toEqual({
          component: componentOf(deployment),
          mode: 'wait',
        });
        const startup = deployment.spec.template.spec.containers[0].startupProbe as {
          periodSeconds: number;
          failureThreshold: number;
        };
        expect(Number(env.DATABASE_MIGRATIONS_WAIT_MS)).toBeLessThan(
          startup.periodSeconds * startup.failureThreshold * 1000,
        );
      }
    });
  });

  it('give the Job the inline database URL in a Secret of its own, made just before it and gone with it', () => {
    const manifests = render([], inline);
    const [secret, ...more] = hookSecrets(manifests);
    expect(more).toEqual([]);
    expect(secret.metadata.annotations).toEqual({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '-10',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    // Only the URL: the hook holds no other credential.
    expect(secret.stringData).toEqual({ 'database-url': inline[0].slice('postgresql.url='.length) });
    const [job] = jobs(manifests);
    for (const c of containersOf(job)) {
      expect(envOf(c).DATABASE_URL.valueFrom?.secretKeyRef).toEqual({
        name: secret.metadata.name,
        key: 'database-url',
      });
    }
  });

  it('give the Job the URL from postgresql.existingSecret as it is, and make no Secret then', () => {
    const manifests = render(
      [],
      ['postgresql.existingSecret=cluster-app', 'postgresql.existingSecretKey=uri'],
    );
    expect(hookSecrets(manifests)).toEqual([]);
    const [job] = jobs(manifests);
    for (const c of containersOf(job)) {
      expect(envOf(c).DATABASE_URL.valueFrom?.secretKeyRef).toEqual({ name: 'cluster-app', key: 'uri' });
    }
  });

  it('take their deadline, retries and the pods’ wait from the values', () => {
    const manifests = render(
      [],
      [...inline, 'migrations.timeoutSeconds=1800', 'migrations.backoffLimit=0', 'migrations.waitMs=60000'],
    );
    const [job] = jobs(manifests);
    expect(job.spec).toMatchObject({ activeDeadlineSeconds: 1800, backoffLimit: 0 });
    for (const c of containersOf(job)) expect(envOf(c).DATABASE_MIGRATE_TIMEOUT_MS.value).toBe('1800000');
    for (const component of schemaOwners) {
      expect(configMapEnv(manifests, component).DATABASE_MIGRATIONS_WAIT_MS).toBe('60000');
    }
  });

  it('trust the campus CA bundle as the pods do, for a PostgreSQL behind TLS', () => {
    const [job] = jobs(render([], [...inline, 'caBundle.secret=campus-ca', 'caBundle.key=ca.pem']));
    expect(job.spec.template.spec.volumes).toContainEqual({
      name: 'ca-bundle',
      secret: { secretName: 'campus-ca', items: [{ key: 'ca.pem', path: 'ca.crt' }] },
    });
    for (const c of containersOf(job)) {
      expect(envOf(c).NODE_EXTRA_CA_CERTS.value).toBe('/etc/classroom-monitor/ca/ca.crt');
      expect(c.volumeMounts).toContainEqual({
        name: 'ca-bundle',
        mountPath: '/etc/classroom-monitor/ca',
        readOnly: true,
      });
    }
  });

  it('when disabled, leave each service to migrate its schema at start, with no Job and no hook Secret', () => {
    const manifests = render([], [...inline, 'migrations.enabled=false']);
    expect(jobs(manifests)).toEqual([]);
    expect(hookSecrets(manifests)).toEqual([]);
    for (const component of schemaOwners) {
      expect(configMapEnv(manifests, component).DATABASE_MIGRATIONS).toBe('run');
    }
  });
});
