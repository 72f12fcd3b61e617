import { type ComponentType, lazy, useCallback, useReducer } from 'react';
import { ScreenUnavailable } from './screen-unavailable';

type Outcome<P> = ComponentType<{ props: P; retry: () => void }>;

/** A lazily loaded component, whose code can be asked for before it is first drawn. */
export type LazyComponent<P> = ComponentType<P> & { preload: () => void };

/**
 * A component whose code is fetched on first render. A fetch that fails never reloads the page
 * on its own (offline, a reload would swap the app for the browser's error page): it shows
 * ScreenUnavailable, which tries again. With the service worker every chunk is precached and
 * this is the path of a browser without one.
 */
export function lazyComponent<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): LazyComponent<P> {
  // One fetch for a preload and the first render; a failed one is forgotten, so Retry fetches anew.
  let pending: Promise<M> | undefined;
  const loadOnce = () => {
    pending ??= load();
    pending.catch(() => (pending = undefined));
    return pending;
  };
  const attempt = () =>
    lazy(async (): Promise<{ default: Outcome<P> }> => {
      try {
        const Picked = pick(await loadOnce());
        return { default: ({ props }) => <Picked {...props} /> };
      } catch (error) {
        return { default: ({ retry }) => <ScreenUnavailable error={error} onRetry={retry} /> };
      }
    });
  let Loaded = attempt();
  function LazyComponent(props: P) {
    const [, rerender] = useReducer((n: number) => n + 1, 0);
    const retry = useCallback(() => {
      Loaded = attempt();
      rerender();
    }, []);
    return <Loaded props={props} retry={retry} />;
  }
  return Object.assign(LazyComponent, { preload: () => void loadOnce().catch(() => undefined) });
}
