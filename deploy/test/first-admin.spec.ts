import { readFileSync } from 'node:fs';
import path from 'node:path';
import { compose } from './support/compose';
import { componentOf, helm, type Manifest, releaseNamespace, render } from './support/helm';
import { type Container, deployments, matches, ofKind, type PodSpec } from './support/kubernetes';
import { chartDir, fromRoot } from './support/paths';

// Two origins, as a comma-separated PUBLIC_ORIGIN (escaped for --set).
const publicOrigin = 'gateway.publicOrigin=https://monitor.campus.example\\,https://av.campus.example';
const firstAdminSecret = 'cm-classroom-monitor-first-admin';

type Rule = { apiGroups: string[]; resources: string[]; verbs: string[]; resourceNames?: string[] };
type PodManifest = Manifest & { metadata: { annotations?: Record<string, string> }; spec: PodSpec };

const auth = (manifests: Manifest[]) => deployments(manifests).find((d) => componentOf(d) === 'auth')!;
const authConfig = (manifests: Manifest[]) =>
  ofKind<Manifest & { data: Record<string, string> }>(manifests, 'ConfigMap').find(
    (m) => componentOf(m) === 'auth',
  )!.data;
const testPod = (manifests: Manifest[]) => ofKind<PodManifest>(manifests, 'Pod')[0];
const envOf = (container: Container) => Object.fromEntries((container.env ?? []).map((e) => [e.name, e]));

describe('the first administrator in the chart', () => {
  describe('with no password given', () => {
    let manifests: Manifest[];
    beforeAll(() => {
      manifests = render([], [publicOrigin]);
    });

    it('has auth create the Secret <release>-classroom-monitor-first-admin, with its own API token', () => {
      expect(authConfig(manifests).ADMIN_PASSWORD_SECRET).toBe(firstAdminSecret);
      expect(envOf(auth(manifests).spec.template.spec.containers[0]).ADMIN_PASSWORD).toBeUndefined();
      expect(auth(manifests).spec.template.spec.automountServiceAccountToken).toBe(true);
    });

    it("lets auth's ServiceAccount create Secrets in the release namespace, and nothing else", () => {
      const [role] = ofKind<Manifest & { rules: Rule[] }>(manifests, 'Role');
      expect(ofKind(manifests, 'Role')).toHaveLength(1);
      expect(role.metadata.namespace).toBe(releaseNamespace);
      expect(role.rules).toEqual([{ apiGroups: [''], resources: ['secrets'], verbs: ['create'] }]);

      const bindings = ofKind<Manifest & { roleRef: object; subjects: object[] }>(manifests, 'RoleBinding');
      expect(bindings).toHaveLength(1);
      expect(bindings[0].roleRef).toEqual({
        apiGroup: 'rbac.authorization.k8s.io',
        kind: 'Role',
        name: role.metadata.name,
      });
      expect(bindings[0].subjects).toEqual([
        {
          kind: 'ServiceAccount',
          name: auth(manifests).spec.template.spec.serviceAccountName,
          namespace: releaseNamespace,
        },
      ]);
    });

    it('tells after the install how to read the password from the Secret', () => {
      const { status, stdout } = helm([
        'install', 'cm', '.', '--dry-run=client', '--namespace', releaseNamespace, '--set', publicOrigin,
        '--set', 'allowGeneratedSecretsWithoutCluster=true',
      ]); // prettier-ignore
      expect(status).toBe(0);
      expect(stdout.slice(stdout.indexOf('NOTES:'))).toContain(
        `kubectl -n ${releaseNamespace} get secret ${firstAdminSecret} -o jsonpath='{.data.password}' | base64 -d`,
      );
    });
  });

  it.each([
    ['an inline password', ['auth.admin.password=correct horse battery']],
    ['an existing Secret', ['auth.admin.existingSecret=campus-admin']],
  ])('with %s: no Secret to create, no Role, no API token', (_name, set) => {
    const manifests = render([], [publicOrigin, ...set]);
    expect(authConfig(manifests).ADMIN_PASSWORD_SECRET).toBeUndefined();
    expect(envOf(auth(manifests).spec.template.spec.containers[0]).ADMIN_PASSWORD).toBeDefined();
    expect(auth(manifests).spec.template.spec.automountServiceAccountToken).toBe(false);
    expect([...ofKind(manifests, 'Role'), ...ofKind(manifests, 'RoleBinding')]).toEqual([]);
  });
});

describe('helm test', () => {
  const script = readFileSync(path.join(chartDir, 'files/api-test.js'), 'utf8');

  it('runs files/api-test.js in the gateway image as a test hook, locked down like the services', () => {
    const manifests = render([], [publicOrigin]);
    const pod = testPod(manifests);
    expect(ofKind(manifests, 'Pod')).toHaveLength(1);
    expect(pod.metadata.annotations).toMatchObject({ 'helm.sh/hook': 'test' });
    const [container] = pod.spec.containers as (Container & { command: string[] })[];
    expect(container.command).toEqual(['node', '-e', script]);
    expect(container.image).toBe(
      auth(manifests).spec.template.spec.containers[0].image!.replace('/auth:', '/gateway:'),
    );
    expect(pod.spec.automountServiceAccountToken).toBe(false);
    expect(pod.spec.securityContext).toMatchObject({
      runAsNonRoot: true,
      seccompProfile: { type: 'RuntimeDefault' },
    });
    expect(container.securityContext).toMatchObject({
      allowPrivilegeEscalation: false,
      readOnlyRootFilesystem: true,
      capabilities: { drop: ['ALL'] },
    });
    expect(container.resources).toMatchObject({ requests: { cpu: '50m' }, limits: { memory: '128Mi' } });
  });

  it("calls the gateway's Service with the first public origin, as the first administrator", () => {
    const manifests = render([], [publicOrigin]);
    const env = envOf(testPod(manifests).spec.containers[0]);
    const [gateway] = ofKind<Manifest & { spec: { ports: { port: number }[] } }>(manifests, 'Service').filter(
      (s) => componentOf(s) === 'gateway',
    );
    expect(env.CM_URL.value).toBe(`http://${gateway.metadata.name}:${gateway.spec.ports[0].port}`);
    expect(env.CM_ORIGIN.value).toBe('https://monitor.campus.example');
    expect([env.CM_USERNAME.valueFrom, env.CM_PASSWORD.valueFrom]).toEqual([
      { secretKeyRef: { name: firstAdminSecret, key: 'username' } },
      { secretKeyRef: { name: firstAdminSecret, key: 'password' } },
    ]);
  });

  it.each([
    [
      'the inline administrator password',
      ['auth.admin.username=avadmin', 'auth.admin.password=correct horse battery'],
      { value: 'avadmin' },
      { secretKeyRef: { name: 'cm-classroom-monitor-credentials', key: 'admin-password' } },
    ],
    [
      "the administrator's existing Secret",
      ['auth.admin.existingSecret=campus-admin', 'auth.admin.existingSecretKey=pw'],
      { value: 'admin' },
      { secretKeyRef: { name: 'campus-admin', key: 'pw' } },
    ],
    [
      'the account tests.existingSecret names',
      ['auth.admin.password=correct horse battery', 'tests.existingSecret=helm-test-account'],
      { valueFrom: { secretKeyRef: { name: 'helm-test-account', key: 'username' } } },
      { secretKeyRef: { name: 'helm-test-account', key: 'password' } },
    ],
  ])('signs in with %s', (_name, set, username, password) => {
    const env = envOf(testPod(render([], [publicOrigin, ...set])).spec.containers[0]);
    expect(env.CM_USERNAME).toEqual({ name: 'CM_USERNAME', ...username });
    expect(env.CM_PASSWORD.valueFrom).toEqual(password);
  });

  it("is let through the gateway's NetworkPolicy when that admits only some peers", () => {
    const manifests = render(
      [],
      [publicOrigin, 'networkPolicy.gatewayFrom[0].namespaceSelector.matchLabels.ingress=yes'],
    );
    const policy = ofKind<
      Manifest & {
        spec: { ingress: { from: { podSelector?: { matchLabels: Record<string, string> } }[] }[] };
      }
    >(manifests, 'NetworkPolicy').find((p) => componentOf(p) === 'gateway')!;
    const peers = policy.spec.ingress[0].from;
    expect(peers).toHaveLength(2);
    expect(
      peers.some(
        (peer) =>
          peer.podSelector && matches(peer.podSelector.matchLabels, testPod(manifests).metadata.labels),
      ),
    ).toBe(true);
  });
});

describe('the first administrator with docker-compose.yml', () => {
  it('keeps the generated password in a file on a named volume that only auth mounts, made writable for it by the image', () => {
    const authService = compose.services.auth;
    const file = String(authService.environment?.ADMIN_PASSWORD_OUTPUT_FILE);
    const directory = path.posix.dirname(file);
    expect(authService.volumes).toEqual([`auth-data:${directory}`]);
    expect(Object.keys(compose.volumes ?? {})).toContain('auth-data');
    const dockerfile = readFileSync(fromRoot('Dockerfile'), 'utf8');
    const authStage = dockerfile.slice(dockerfile.indexOf('FROM runtime AS auth'));
    expect(authStage.split('\nFROM ')[0]).toMatch(new RegExp(`COPY .*--chown=1000:1000 .* ${directory}\\n`));
  });
});
