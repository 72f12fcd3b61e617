/**
 * Layer rules, checked by `npm test` (scripts/test.mjs): the seams between parts hold by a tool,
 * not by memory. Paths are resolved through the workspace symlinks, so `@cm/platform` counts as
 * `libs/platform` wherever it is imported from.
 */
module.exports = {
  forbidden: [
    {
      name: 'service-to-service',
      comment: 'A service talks to another only over NATS, through the contracts in libs/contracts.',
      severity: 'error',
      from: { path: '^services/([^/]+)/' },
      to: { path: '^services/', pathNot: '^services/$1/' },
    },
    {
      name: 'libs-to-apps',
      comment: 'Libraries are shared by every process: they know no service and no screen.',
      severity: 'error',
      from: { path: '^libs/' },
      to: { path: '^(services|web|e2e|bench)/' },
    },
    {
      name: 'contracts-stay-portable',
      comment: 'The contracts run in the browser too: no platform code, no server or UI framework.',
      severity: 'error',
      from: { path: '^libs/contracts/' },
      to: {
        path: ['^libs/platform/', 'node_modules/(@nestjs|typeorm|pg|nats|react|react-dom)/'],
      },
    },
    {
      name: 'web-reaches-no-server',
      comment: 'The web app shares only the contracts with the servers.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: ['^(services|libs/platform)/', 'node_modules/(@nestjs|typeorm|pg|nats)/'] },
    },
    {
      name: 'feature-to-feature',
      comment: 'A web feature never imports another feature: shared parts live in components/ or lib/.',
      severity: 'error',
      from: { path: '^web/src/features/([^/]+)/' },
      to: { path: '^web/src/features/', pathNot: '^web/src/features/$1/' },
    },
    {
      name: 'gateway-auth-on-top',
      comment:
        'In the gateway, sign-in and the guards (auth/) use identity, the throttle, tokens, sessions and the audit log; none of those reaches back into auth/.',
      severity: 'error',
      from: { path: '^services/gateway/src/(identity|throttle|tokens|session|audit)/' },
      to: { path: '^services/gateway/src/auth/' },
    },
    {
      name: 'orm-in-repositories',
      comment: 'TypeORM appears only in entities, repositories, migrations and the shared data source.',
      severity: 'error',
      from: {
        path: '^services/[^/]+/src/',
        pathNot: ['\\.(entity|repository)\\.ts$', '/migrations/', '\\.spec\\.ts$'],
      },
      to: { path: 'node_modules/typeorm/' },
    },
    {
      name: 'resolvable',
      comment: 'An import the checker cannot resolve would slip past every rule above.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment: 'A cycle makes start-up order and tests depend on which file happens to load first.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|coverage)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.layers.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      mainFields: ['main', 'types'],
    },
  },
};
