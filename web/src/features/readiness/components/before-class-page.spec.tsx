import { type ReadinessClass } from '@cm/contracts';
import { screen, within } from '@testing-library/react';
import { renderWithApp } from '../../../test/render';
import { BeforeClassPage } from './before-class-page';

const lesson = (over: Partial<ReadinessClass>): ReadinessClass => ({
  title: 'PHYS 101',
  startsAt: '2026-03-02T09:00:00.000Z',
  endsAt: '2026-03-02T10:00:00.000Z',
  room: { id: '00000000-0000-4000-8000-000000000101', name: '101' },
  building: { id: '00000000-0000-4000-8000-0000000000b1', name: 'Hall A' },
  state: 'at-risk',
  reasons: ['Display (10.1.2.4) offline'],
  checkedAt: '2026-03-02T08:40:00.000Z',
  ...over,
});

function serve(status: number, body: unknown) {
  global.fetch = jest.fn(async () => {
    const text = JSON.stringify(body);
    return { ok: status < 300, status, statusText: '', text: async () => text };
  }) as unknown as typeof fetch;
}

describe(BeforeClassPage.name, () => {
  it('lists the classes ahead with their room, state and why a room is at risk', async () => {
    serve(200, [
      lesson({}),
      lesson({
        title: 'ECON 101',
        state: 'ready',
        reasons: [],
        room: { id: '00000000-0000-4000-8000-000000000102', name: '102' },
      }),
      lesson({ title: 'CHEM 201', state: 'not-checked', reasons: [], checkedAt: null }),
    ]);
    renderWithApp(<BeforeClassPage />);
    const items = within(await screen.findByRole('list', { name: 'Classes' })).getAllByRole('listitem');
    expect(items[0]).toHaveTextContent('PHYS 101');
    expect(items[0]).toHaveTextContent('At risk');
    expect(items[0]).toHaveTextContent('Display (10.1.2.4) offline');
    expect(within(items[0]).getByRole('link', { name: '101, Hall A' })).toHaveAttribute(
      'href',
      '/rooms/00000000-0000-4000-8000-000000000101',
    );
    expect(screen.getByText('Ready')).toBeInTheDocument();
    expect(screen.getByText('Not checked')).toBeInTheDocument();
  });

  it('says when there are no classes, and when they could not be loaded', async () => {
    serve(200, []);
    const { unmount } = renderWithApp(<BeforeClassPage />);
    expect(await screen.findByText('No classes in the next hours')).toBeInTheDocument();
    unmount();
    serve(500, { code: 'COMMON.INTERNAL', message: 'Something went wrong' });
    renderWithApp(<BeforeClassPage />);
    expect(await screen.findByText(/Could not load the classes/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
