import { type ComponentType, lazy, useCallback, useReducer } from 'react';
import { ScreenUnavailable } from './screen-unavailable';

type Outcome<P> = ComponentType<{ props: P; retry: () => void }>;

/** A thenable that answers at once: React's lazy then takes the value without suspending. */
const syncThenable = <T,>(value: T) => ({ then: (resolve: (value: T) => void) => resolve(value) });

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
  let loaded: { module: M } | undefined;
  const loadOnce = () => {
    pending ??= load().then((module) => {
      loaded = { module };
      return module;
    });
    pending.catch(() => (pending = undefined));
    return pending;
  };
  const ready = (module: M): { default: Outcome<P> } => {
    const Picked = pick(module);
    return { default: ({ props }) => <Picked {...props} /> };
  };
  const attempt = () =>
    lazy(() =>
      // Code already here (preloaded) is drawn at once, not after a suspended render: a dialog's
      // form is then there when the dialog puts the focus on its first field.
      loaded
        ? (syncThenable(ready(loaded.module)) as Promise<{ default: Outcome<P> }>)
        : loadOnce().then(ready, (error: unknown) => ({
            default: ({ retry }: { retry: () => void }) => (
              <ScreenUnavailable error={error} onRetry={retry} />
            ),
          })),
    );
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
