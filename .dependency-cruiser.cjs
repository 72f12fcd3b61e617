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
      name: 'gateway-folders-one-way',
      comment:
        "Two of the gateway's feature folders never import each other both ways (directly or " +
        'round a longer circle): what both need lives in a third, lower folder.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^services/gateway/src/[^/]+$' },
      // The root folder (the composition root, the configuration) is no feature.
      to: { circular: true, viaOnly: { path: '^services/gateway/src/[^/]+$' } },
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
      name: 'controllers-on-top',
      comment:
        'Message controller → service → repository: a service or a repository never imports a controller.',
      severity: 'error',
      from: { path: '^services/[^/]+/src/.+\\.(service|repository)\\.ts$' },
      to: { path: '\\.controller\\.ts$' },
    },
    {
      name: 'repository-imports-no-service',
      comment:
        'A repository is the bottom layer: it runs SQL and calls nothing above it (services, and ' +
        'what works like them: consumers, relays, publishers).',
      severity: 'error',
      from: { path: '^services/[^/]+/src/.+\\.repository\\.ts$' },
      to: { path: '\\.(service|consumer|relay|publisher)\\.ts$' },
    },
    {
      name: 'repository-imports-no-other-feature-repository',
      comment:
        "A repository holds its own feature's tables; what it needs of another feature's goes " +
        "through a service. The base class of a database folder is no feature's repository.",
      severity: 'error',
      from: { path: '^(services/[^/]+/src/.+)/[^/]+\\.repository\\.ts$' },
      to: {
        path: '\\.repository\\.ts$',
        pathNot: ['^$1/[^/]+\\.repository\\.ts$', '^services/[^/]+/src/(shared/)?database/'],
      },
    },
    {
      name: 'inventory-catalogue-reads-no-context',
      comment:
        "Inventory's contexts depend one way: alerting may read status and the catalogue, status " +
        'the catalogue, the catalogue neither. What a lower context needs done above it, it ' +
        'declares as an interface in its index, and the context above implements it.',
      severity: 'error',
      from: { path: '^services/inventory/src/catalogue/' },
      to: { path: '^services/inventory/src/(status|alerting)/' },
    },
    {
      name: 'inventory-status-reads-no-alerting',
      comment: 'See inventory-catalogue-reads-no-context.',
      severity: 'error',
      from: { path: '^services/inventory/src/status/' },
      to: { path: '^services/inventory/src/alerting/' },
    },
    {
      name: 'inventory-context-public-face',
      comment:
        'Another context is imported through its index.ts only, the list of what it lets others use; its folders are its own.',
      severity: 'error',
      from: { path: '^services/inventory/src/(catalogue|status|alerting)/' },
      to: {
        path: '^services/inventory/src/(catalogue|status|alerting)/',
        pathNot: ['^services/inventory/src/$1/', '^services/inventory/src/[^/]+/index\\.ts$'],
      },
    },
    {
      name: 'inventory-root-wires-contexts',
      comment:
        "Inventory's composition root (app.module.ts, config.ts) takes a context's module and " +
        'its index, nothing deeper.',
      severity: 'error',
      from: { path: '^services/inventory/src/[^/]+\\.ts$' },
      to: {
        path: '^services/inventory/src/(catalogue|status|alerting)/',
        pathNot: '^services/inventory/src/([^/]+)/(index|[^/]+\\.module)\\.ts$',
      },
    },
    {
      name: 'inventory-shared-knows-no-context',
      comment: "What inventory's contexts share (shared/, migrations/) knows none of them.",
      severity: 'error',
      from: { path: '^services/inventory/src/(shared|migrations)/' },
      to: { path: '^services/inventory/src/(catalogue|status|alerting)/' },
    },
    {
      name: 'resolvable',
      comment:
        'An import the checker cannot resolve would slip past every rule above. A Vite virtual ' +
        'module (the service worker registration of vite-plugin-pwa) exists only inside the build.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, pathNot: '^virtual:' },
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
