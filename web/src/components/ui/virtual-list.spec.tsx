import { render, screen } from '@testing-library/react';
import { FIRST_DRAW, VirtualList, WHOLE_LIST_LIMIT } from './virtual-list';

const buildings = (count: number) =>
  Array.from({ length: count }, (_, i) => ({
    id: `b${i}`,
    name: `Building ${String(i + 1).padStart(3, '0')}`,
  }));

function List({ count }: { count: number }) {
  return (
    <VirtualList
      items={buildings(count)}
      itemKey={(b) => b.id}
      estimateHeight={() => 260}
      gap={16}
      className="space-y-4"
      renderItem={(b) => <h2>{b.name}</h2>}
    />
  );
}

describe(VirtualList.name, () => {
  it('draws a short list whole, in order', () => {
    render(<List count={WHOLE_LIST_LIMIT} />);
    const headings = screen.getAllByRole('heading');
    expect(headings).toHaveLength(WHOLE_LIST_LIMIT);
    expect(headings[0]).toHaveTextContent('Building 001');
    expect(headings.at(-1)).toHaveTextContent(`Building 0${WHOLE_LIST_LIMIT}`);
  });

  it('draws the first items of a long list at once, then only the start of it, sized for all of it', async () => {
    const { container } = render(<List count={200} />);
    // The windowing code is fetched when a long list is first drawn; meanwhile, its first items.
    expect(screen.getAllByRole('heading')).toHaveLength(FIRST_DRAW);
    expect(screen.getAllByRole('heading')[0]).toHaveTextContent('Building 001');
    await screen.findByText('Building 013');
    const headings = screen.getAllByRole('heading');
    // jsdom lays nothing out (every item measures 0 px), so more are drawn than on a phone.
    expect(headings.length).toBeLessThan(200);
    expect(headings[0]).toHaveTextContent('Building 001');
    const list = container.querySelector<HTMLElement>('[data-windowed]')!;
    expect(parseInt(list.style.height, 10)).toBeGreaterThan(100 * 260);
  });
});
