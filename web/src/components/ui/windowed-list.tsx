import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useEffect, useRef, useState } from 'react';

export interface VirtualListProps<T> {
  items: readonly T[];
  itemKey: (item: T) => string;
  renderItem: (item: T) => ReactNode;
  /** A first guess of an item's height in px; each drawn item is then measured. */
  estimateHeight: (item: T) => number;
  /** Space between items in px, as `className`'s `space-y-*` puts when drawn whole. */
  gap: number;
  /** The whole list's classes; a windowed one places its items itself. */
  className?: string;
}

/** Where the list starts in the page, followed as what is above it grows or shrinks. */
function useOffsetInPage(list: React.RefObject<HTMLDivElement | null>): number {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    const element = list.current;
    if (!element || typeof ResizeObserver === 'undefined') return;
    const measure = () => setOffset(element.getBoundingClientRect().top + window.scrollY);
    // Its first report comes as soon as it observes: the offset is known before the first scroll.
    const observer = new ResizeObserver(measure);
    observer.observe(document.body);
    return () => observer.disconnect();
  }, [list]);
  return offset;
}

/** The long list's window (./virtual-list.tsx loads this module when one is first drawn). */
export function WindowedList<T>({ items, itemKey, renderItem, estimateHeight, gap }: VirtualListProps<T>) {
  const list = useRef<HTMLDivElement>(null);
  const scrollMargin = useOffsetInPage(list);
  const virtualizer = useWindowVirtualizer({
    count: items.length,
    estimateSize: (index) => estimateHeight(items[index]!),
    getItemKey: (index) => itemKey(items[index]!),
    gap,
    overscan: 4,
    scrollMargin,
  });
  return (
    <div ref={list} className="relative" style={{ height: virtualizer.getTotalSize() }} data-windowed="">
      {virtualizer.getVirtualItems().map((row) => (
        <div
          key={row.key}
          data-index={row.index}
          ref={virtualizer.measureElement}
          className="absolute top-0 left-0 w-full"
          style={{ transform: `translateY(${row.start - scrollMargin}px)` }}
        >
          {renderItem(items[row.index]!)}
        </div>
      ))}
    </div>
  );
}
