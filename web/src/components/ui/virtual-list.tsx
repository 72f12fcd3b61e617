import { Fragment, useEffect, useState } from 'react';
import { type VirtualListProps } from './windowed-list';

/**
 * Up to this many items a list is drawn whole: cheap, and every item stays findable in the page
 * (the browser's find, a screen reader's list). Past it only the items near the screen are.
 */
export const WHOLE_LIST_LIMIT = 60;

/** How many items a long list draws while the windowing code is still on its way. */
export const FIRST_DRAW = 12;

export type { VirtualListProps } from './windowed-list';

// The windowing library is about a tenth of a first screen's JavaScript on the wire, and only a
// list past WHOLE_LIST_LIMIT needs it: it is fetched when the first such list is drawn.
type Windowed = typeof import('./windowed-list');
let windowed: Windowed | undefined;
const loadWindowed = () => import('./windowed-list').then((module) => (windowed = module));

function Whole<T>({ items, itemKey, renderItem, className }: VirtualListProps<T>) {
  return (
    <div className={className}>
      {items.map((item) => (
        <Fragment key={itemKey(item)}>{renderItem(item)}</Fragment>
      ))}
    </div>
  );
}

/**
 * A list in the page's own scroll (the window scrolls, not a box): 200 buildings cost the work of
 * the dozen on screen, on first draw and on each keystroke of a search that filters them.
 */
export function VirtualList<T>(props: VirtualListProps<T>) {
  if (props.items.length <= WHOLE_LIST_LIMIT) return <Whole {...props} />;
  return <LongList {...props} />;
}

function LongList<T>(props: VirtualListProps<T>) {
  const [module, setModule] = useState(windowed);
  useEffect(() => {
    if (module) return;
    let current = true;
    // A failed fetch (offline before the code was cached) keeps the first items on screen.
    loadWindowed().then(
      (loaded) => current && setModule(loaded),
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [module]);
  if (!module) {
    return (
      <div className="flex flex-col" style={{ gap: props.gap }} data-first-draw="">
        {props.items.slice(0, FIRST_DRAW).map((item) => (
          <Fragment key={props.itemKey(item)}>{props.renderItem(item)}</Fragment>
        ))}
      </div>
    );
  }
  return <module.WindowedList {...props} />;
}
