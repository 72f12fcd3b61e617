import path from 'node:path';

export const repoRoot = path.resolve(__dirname, '../../..');
export const chartDir = path.join(repoRoot, 'deploy/helm/classroom-monitor');
export const fromRoot = (...parts: string[]) => path.join(repoRoot, ...parts);

/** The five services, each a workspace `services/<name>` built into the image target `<name>`. */
export const services = ['gateway', 'auth', 'inventory', 'media', 'monitor'] as const;
export type ServiceName = (typeof services)[number];
