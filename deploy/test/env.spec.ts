import { compose, interpolate } from './support/compose';
import {
  alsoRead,
  composeKeepsDefault,
  configSchemas,
  generatedPasswordDestinations,
  otherNatsLogins,
  setByImage,
  setWhenConfigured,
  variablesRead,
} from './support/config-schemas';
import { componentOf, type Manifest, render, valueSets } from './support/helm';
import { deployments, envOf, ofKind, podOf } from './support/kubernetes';
import { services, type ServiceName } from './support/paths';

const read = Object.fromEntries(services.map((s) => [s, variablesRead(configSchemas[s])])) as Record<
  ServiceName,
  string[]
>;
const without = (names: string[], ...lists: string[][]) =>
  names.filter((n) => !lists.some((l) => l.includes(n)));

/** Per service: the variables the chart sets, with their values where the chart holds them. */
function chartEnvironment(manifests: Manifest[]): Record<string, Record<string, string | undefined>> {
  const configMaps = ofKind<Manifest & { data: Record<string, string> }>(manifests, 'ConfigMap');
  const secrets = ofKind<Manifest & { stringData: Record<string, string> }>(manifests, 'Secret');
  return Object.fromEntries(
    deployments(manifests).map((deployment) => {
      const env: Record<string, string | undefined> = {};
      const [container] = deployment.spec.template.spec.containers;
      for (const source of container.envFrom ?? []) {
        Object.assign(env, configMaps.find((m) => m.metadata.name === source.configMapRef?.name)?.data);
      }
      for (const { name, value, valueFrom } of container.env ?? []) {
        const ref = valueFrom?.secretKeyRef;
        env[name] = ref ? secrets.find((s) => s.metadata.name === ref.name)?.stringData[ref.key] : value;
      }
      return [componentOf(deployment), env];
    }),
  );
}

describe('environment of the services', () => {
  it('reads every service schema, and names in the lists only variables some service reads', () => {
    for (const service of services)
      expect(read[service]).toEqual(expect.arrayContaining(['CM_NAMESPACE', 'NATS_URL']));
    const all = new Set(Object.values(read).flat());
    for (const name of [...Object.values(setByImage).flat(), ...setWhenConfigured, ...composeKeepsDefault]) {
      expect({ name, read: all.has(name) }).toEqual({ name, read: true });
    }
  });

  describe.each(valueSets)('set by the chart with $name', ({ name, files }) => {
    let env: ReturnType<typeof chartEnvironment>;
    beforeAll(() => {
      env = chartEnvironment(render(files));
    });

    it.each(services)('sets for %s only variables it reads', (service) => {
      expect(without(Object.keys(env[service]), read[service], alsoRead(service))).toEqual([]);
    });

    it.each(services)(
      'sets for %s every variable it reads, but those of the image and the optional ones',
      (service) => {
        const required = without(
          read[service],
          setByImage[service],
          setWhenConfigured,
          otherNatsLogins,
          generatedPasswordDestinations,
        );
        // A secret given as a file (secretsAsFiles) is set by its <NAME>_FILE.
        const set = Object.keys(env[service]).map((n) => n.replace(/_FILE$/, ''));
        expect(without(required, set)).toEqual([]);
        if (name === 'ci/inline-credentials-values.yaml') {
          expect(
            without(
              read[service],
              setByImage[service],
              otherNatsLogins,
              generatedPasswordDestinations,
            ).filter((n) => !Object.keys(env[service]).includes(n)),
          ).toEqual([]);
        }
      },
    );
  });

  it.each(services)('starts %s with what the chart sets from complete values', (service) => {
    const env = {
      NODE_ENV: 'production',
      ...chartEnvironment(render(['ci/inline-credentials-values.yaml']))[service],
    };
    const result = configSchemas[service].safeParse(env);
    expect(result.error?.issues ?? []).toEqual([]);
  });

  describe('set by docker-compose.yml', () => {
    const environment = (service: ServiceName) => compose.services[service].environment ?? {};

    it.each(services)('sets for %s only variables it reads', (service) => {
      expect(without(Object.keys(environment(service)), read[service])).toEqual([]);
    });

    it.each(services)(
      'sets for %s every variable it reads but those the image sets or one host keeps',
      (service) => {
        const required = without(
          read[service],
          setByImage[service],
          composeKeepsDefault,
          otherNatsLogins,
          generatedPasswordDestinations,
        );
        expect(without(required, Object.keys(environment(service)))).toEqual([]);
      },
    );

    it.each(services)('passes the optional variables of %s through only when given', (service) => {
      const passedThrough = Object.entries(environment(service)).filter(([, value]) => value === null);
      for (const [name] of passedThrough) expect(setWhenConfigured).toContain(name);
    });

    it.each(services)(
      'starts %s with what docker-compose.yml sets, given the required secrets',
      (service) => {
        // Long enough for every secret's minimum length (the session secret's is 32).
        const given = (name: string) =>
          name === 'PUBLIC_ORIGIN'
            ? 'https://monitor.campus.example'
            : `${name.toLowerCase().replace(/_/g, '')}example0123456789abcdef`;
        const env = {
          // As the image sets it: production, where the gateway requires PUBLIC_ORIGIN.
          NODE_ENV: 'production',
          ...Object.fromEntries(
            Object.entries(environment(service))
              .filter(([, value]) => value !== null)
              .map(([name, value]) => [name, interpolate(String(value), given)]),
          ),
        };
        const result = configSchemas[service].safeParse(env);
        expect(result.error?.issues ?? []).toEqual([]);
      },
    );
  });
});

describe('copies of the JetStream state (NATS_STREAM_REPLICAS)', () => {
  const creators = services.filter((s) => read[s].includes('NATS_STREAM_REPLICAS'));

  it('are read by the processes that create streams and KV buckets: the gateway (the live stream), auth (account changes), inventory and the monitor', () => {
    expect(creators).toEqual(['gateway', 'auth', 'inventory', 'monitor']);
  });

  it('are one by default and nats.streamReplicas when given, for every one of them', () => {
    const byDefault = chartEnvironment(render());
    const cluster = chartEnvironment(render([], ['nats.streamReplicas=3']));
    for (const service of creators) {
      expect({ service, replicas: byDefault[service].NATS_STREAM_REPLICAS }).toEqual({
        service,
        replicas: '1',
      });
      expect({ service, replicas: cluster[service].NATS_STREAM_REPLICAS }).toEqual({
        service,
        replicas: '3',
      });
    }
  });

  it('refuses a count NATS cannot keep', () => {
    expect(() => render([], ['nats.streamReplicas=0'])).toThrow(/streamReplicas/);
    expect(() => render([], ['nats.streamReplicas=6'])).toThrow(/streamReplicas/);
  });
});

describe('networks equipment may be in', () => {
  /** What a service takes in production when MONITOR_ALLOWED_NETWORKS is unset: the code's default. */
  const codeDefault = (service: 'inventory' | 'monitor') =>
    (
      configSchemas[service].parse({ NODE_ENV: 'production' }) as {
        MONITOR_ALLOWED_NETWORKS: { text: string }[];
      }
    ).MONITOR_ALLOWED_NETWORKS.map((n) => n.text).join(',');
  const campus = '10.0.0.0/8,172.16.0.0/12,192.168.0.0/16';

  it('are the private ranges in production, for the monitor and inventory alike', () => {
    expect([codeDefault('monitor'), codeDefault('inventory')]).toEqual([campus, campus]);
  });

  it('are the same by default in the chart, and one value for both services', () => {
    const byDefault = chartEnvironment(render());
    expect([
      byDefault.monitor.MONITOR_ALLOWED_NETWORKS,
      byDefault.inventory.MONITOR_ALLOWED_NETWORKS,
    ]).toEqual([campus, campus]);
    const given = chartEnvironment(render([], ['monitor.allowedNetworks=10.20.0.0/16']));
    expect([given.monitor.MONITOR_ALLOWED_NETWORKS, given.inventory.MONITOR_ALLOWED_NETWORKS]).toEqual([
      '10.20.0.0/16',
      '10.20.0.0/16',
    ]);
  });

  it('are the same by default in docker-compose.yml, and one variable for both services', () => {
    const [monitor, inventory] = (['monitor', 'inventory'] as const).map((service) =>
      String(compose.services[service].environment?.MONITOR_ALLOWED_NETWORKS),
    );
    expect(inventory).toBe(monitor);
    expect(interpolate(monitor, () => '')).toBe(campus);
  });
});

describe('single sign-on (OpenID Connect)', () => {
  const issuer = 'https://login.microsoftonline.com/00000000-0000-4000-8000-00000000cafe/v2.0';
  const given = [`auth.oidc.issuerUrl=${issuer}`, 'auth.oidc.clientId=classroom-monitor'];
  const oidcOf = (env: Record<string, string | undefined>) =>
    Object.fromEntries(Object.entries(env).filter(([name]) => name.startsWith('OIDC_')));

  it("reaches auth, and only auth, with the chart's defaults for what the values leave", () => {
    const env = chartEnvironment(
      render(
        [],
        [
          ...given,
          'auth.oidc.clientSecret=not-a-real-client-secret',
          'auth.oidc.displayName=Campus account',
          'auth.oidc.adminGroups={1f0c5e2a-aaaa-4bbb-8ccc-000000000001,1f0c5e2a-aaaa-4bbb-8ccc-000000000002}',
        ],
      ),
    );
    expect(oidcOf(env.auth)).toEqual({
      OIDC_ISSUER_URL: issuer,
      OIDC_CLIENT_ID: 'classroom-monitor',
      OIDC_CLIENT_SECRET: 'not-a-real-client-secret',
      OIDC_DISPLAY_NAME: 'Campus account',
      OIDC_ADMIN_GROUPS: '1f0c5e2a-aaaa-4bbb-8ccc-000000000001,1f0c5e2a-aaaa-4bbb-8ccc-000000000002',
      OIDC_USERNAME_CLAIM: 'preferred_username',
      OIDC_GROUPS_CLAIM: 'groups',
      OIDC_SCOPES: 'openid profile email',
      OIDC_TIMEOUT_MS: '10000',
    });
    for (const service of services.filter((s) => s !== 'auth')) expect(oidcOf(env[service])).toEqual({});
  });

  it("keeps the client secret in a Secret, the given one or the chart's, never in a ConfigMap", () => {
    const existing = render([], [...given, 'auth.oidc.existingSecret=campus-oidc']);
    expect(envOf(podOf(existing, 'auth').container).OIDC_CLIENT_SECRET).toEqual({
      secretKeyRef: { name: 'campus-oidc', key: 'oidc-client-secret' },
    });
    const inline = render([], [...given, 'auth.oidc.clientSecret=not-a-real-client-secret']);
    for (const configMap of ofKind<Manifest & { data: Record<string, string> }>(inline, 'ConfigMap'))
      expect(Object.values(configMap.data)).not.toContain('not-a-real-client-secret');
  });

  it('sets nothing without an issuer, and refuses an issuer without a client ID', () => {
    expect(oidcOf(chartEnvironment(render([], ['auth.oidc.clientId=classroom-monitor'])).auth)).toEqual({});
    expect(() => render([], [`auth.oidc.issuerUrl=${issuer}`])).toThrow(
      'auth.oidc.clientId is required with auth.oidc.issuerUrl',
    );
  });

  it('passes every setting through docker-compose.yml only when given', () => {
    const environment = compose.services.auth.environment ?? {};
    const passed = Object.keys(environment).filter((name) => name.startsWith('OIDC_'));
    expect(passed.sort()).toEqual(setWhenConfigured.filter((name) => name.startsWith('OIDC_')).sort());
    for (const name of passed) expect(environment[name]).toBeNull();
  });
});
