import { type startSystem } from './stack';

export default async function teardown(): Promise<void> {
  await (globalThis as { sharedSystem?: Awaited<ReturnType<typeof startSystem>> }).sharedSystem?.close();
}
