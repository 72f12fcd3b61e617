import { helm, refusal } from './support/helm';

describe('values the chart refuses', () => {
  it.each([
    [
      'allowed networks that are not CIDR blocks',
      ['monitor.allowedNetworks=10.20.0.0/16\\,10.21.0.0'],
      "at '/monitor/allowedNetworks'",
    ],
    [
      'a prefix longer than 32 bits',
      ['monitor.allowedNetworks=10.0.0.0/33'],
      "at '/monitor/allowedNetworks'",
    ],
    [
      'a NetworkPolicy ipBlock that is not a CIDR block',
      ['networkPolicy.gatewayFrom[0].ipBlock.cidr=10.0.0.0'],
      "at '/networkPolicy/gatewayFrom/0/ipBlock/cidr'",
    ],
    [
      'TLS without the Secret of its certificate',
      ['gateway.ingress.enabled=true', 'gateway.ingress.tls.enabled=true', 'gateway.ingress.tls.secretName='],
      "at '/gateway/ingress/tls/secretName': minLength",
    ],
    [
      'a disruption budget over 100%',
      ['inventory.podDisruptionBudget.maxUnavailable=150%'],
      "at '/inventory/podDisruptionBudget/maxUnavailable'",
    ],
    [
      'a quantity with an unknown unit',
      ['auth.resources.limits.memory=1GB'],
      "at '/auth/resources/limits/memory'",
    ],
    [
      'more replicas at least than at most',
      [
        'gateway.autoscaling.enabled=true',
        'gateway.autoscaling.minReplicas=5',
        'gateway.autoscaling.maxReplicas=3',
      ],
      'gateway.autoscaling.minReplicas (5) is more than gateway.autoscaling.maxReplicas (3)',
    ],
    [
      'a CPU request over its limit',
      ['auth.resources.requests.cpu=1500m'],
      'auth.resources.requests.cpu (1500m) is more than auth.resources.limits.cpu (1)',
    ],
    [
      'a memory request over its limit, in other units',
      ['media.resources.requests.memory=1G', 'media.resources.limits.memory=900Mi'],
      'media.resources.requests.memory (1G) is more than media.resources.limits.memory (900Mi)',
    ],
    ['a digest that is not one', ['gateway.image.digest=sha256:abc'], "at '/gateway/image/digest'"],
  ])('%s', (_what, set, message) => {
    expect(refusal(set)).toContain(message);
  });

  it.each([
    ['CIDR lists with spaces', ['monitor.allowedNetworks=10.20.0.0/16\\, 192.168.1.0/24']],
    ['a budget of a percentage', ['inventory.podDisruptionBudget.maxUnavailable=100%']],
    [
      'requests equal to limits in other units',
      ['media.resources.requests.memory=1Gi', 'media.resources.limits.memory=1024Mi'],
    ],
    [
      'fractional cores against millicores',
      ['auth.resources.requests.cpu=0.5', 'auth.resources.limits.cpu=500m'],
    ],
    ['an IPv6 ipBlock', ['networkPolicy.gatewayFrom[0].ipBlock.cidr=fd00::/8']],
  ])('accepts %s', (_what, set) => {
    expect(refusal(set)).toBe('');
  });

  it('compares quantities given as plain numbers, as a values file gives them', () => {
    const { status, stderr } = helm([
      'template',
      'cm',
      '.',
      '--set',
      'allowGeneratedSecretsWithoutCluster=true',
      '--set-json',
      'media.resources.requests.memory=536870912',
      '--set-json',
      'media.resources.limits.memory=268435456',
    ]);
    expect(status).not.toBe(0);
    expect(stderr).toMatch(
      /media\.resources\.requests\.memory \(.+\) is more than media\.resources\.limits\.memory/,
    );
  });
});
