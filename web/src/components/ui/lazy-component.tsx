import { type ComponentType, lazy, useCallback, useReducer } from 'react';
import { ScreenUnavailable } from './screen-unavailable';

type Outcome<P> = ComponentType<{ props: P; retry: () => void }>;

/**
 * A component whose code is fetched on first render. A fetch that fails never reloads the page
 * on its own (offline, a reload would swap the app for the browser's error page): it shows
 * ScreenUnavailable, which tries again. With the service worker every chunk is precached and
 * this is the path of a browser without one.
 */
export function lazyComponent<M, P extends object>(
  load: () => Promise<M>,
  pick: (module: M) => ComponentType<P>,
): ComponentType<P> {
  const attempt = () =>
    lazy(async (): Promise<{ default: Outcome<P> }> => {
      try {
        const Picked = pick(await load());
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
  return LazyComponent;
}
