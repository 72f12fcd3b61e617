// The webhooks' address rules, for class schedule feeds (one set of rules for every address a
// person types in). Apart from index.ts, which the composition root's config.ts reads: these
// read the configuration's type, and through index.ts that would be a cycle.
export { failureWord, WebhookTargets } from './notifications/webhook-targets';
