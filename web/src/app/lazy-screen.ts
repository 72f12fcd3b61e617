import { type ComponentType, lazy } from 'react';

/**
 * A component whose code is fetched on first render. While a failed fetch reloads the page
 * (main.tsx) the import answers undefined; the component then keeps waiting rather than failing.
 */
export function lazyScreen<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
) {
  return lazy(async () => {
    const module = (await load()) as M | undefined;
    if (module === undefined) return new Promise<never>(() => {});
    return { default: pick(module) };
  });
}
