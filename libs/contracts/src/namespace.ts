/** The stack's namespace (CM_NAMESPACE) on every NATS name, so stacks can share one server. */
const namespacePattern = /^[a-z][a-z0-9_]{0,30}$/;

export function isValidNamespace(ns: string): boolean {
  return namespacePattern.test(ns);
}

/** `cm` + `inventory.room.list` → `cm.inventory.room.list` */
export function namespacedSubject(ns: string, subject: string): string {
  return `${ns}.${subject}`;
}

/** JetStream stream and KV bucket names may not contain dots. */
export function namespacedName(ns: string, name: string): string {
  return `${ns}_${name}`;
}
