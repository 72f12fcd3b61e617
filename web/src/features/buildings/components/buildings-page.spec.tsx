import { act, screen, waitFor, within } from '@testing-library/react';
import { userEvent } from '../../../test/user-event';
import { discard } from '../../../lib/offline/outbox-store';
import { emptyOutbox, savedOffline } from '../../../test/outbox';
import { fakeFetch, renderWithApp } from '../../../test/render';
import { BuildingsPage } from './buildings-page';

describe(BuildingsPage.name, () => {
  afterEach(emptyOutbox);

  it('shows a building added offline as a pending card until the server has it, and searches it too', async () => {
    // The list, and the problems banner's read.
    const calls = fakeFetch(...Array.from({ length: 4 }, () => ({ status: 200, body: [] })));
    renderWithApp(<BuildingsPage />);
    expect(await screen.findByText('No buildings found')).toBeInTheDocument();

    await savedOffline({
      key: 'add-annex',
      route: 'createBuilding',
      params: {},
      body: { name: 'Annex', description: 'Behind the library' },
      label: 'Add building Annex',
    });
    // A room added offline elsewhere is not a building.
    await savedOffline({
      key: 'add-room',
      route: 'createRoom',
      params: { buildingId: '00000000-0000-4000-8000-000000000001' },
      body: { name: '101', type: 'Classroom', floor: '1' },
      label: 'Add room 101',
    });
    expect(calls.filter((call) => call.init?.method && call.init.method !== 'GET')).toEqual([]); // nothing sent

    const added = await screen.findByRole('list', { name: 'Added on this phone' });
    const cards = within(added).getAllByTestId('pending-create');
    expect(cards).toHaveLength(1);
    expect(within(cards[0]).getByRole('heading', { name: 'Annex' })).toBeInTheDocument();
    expect(cards[0]).toHaveTextContent('Behind the library');
    expect(cards[0]).toHaveTextContent('Pending add');
    // The list is not empty to the person: the building is there, waiting to be sent.
    expect(screen.queryByText('No buildings found')).not.toBeInTheDocument();

    const search = screen.getByLabelText('Search buildings');
    await userEvent.type(search, 'science');
    expect(screen.queryByTestId('pending-create')).not.toBeInTheDocument();
    expect(screen.getByText('No buildings found')).toBeInTheDocument();
    await userEvent.clear(search);
    await userEvent.type(search, 'LIBRARY');
    expect(screen.getByTestId('pending-create')).toHaveTextContent('Annex');

    // Gone from the phone (sent, or discarded from the waiting changes), the card goes.
    await act(() => discard('add-annex'));
    await waitFor(() => expect(screen.queryByTestId('pending-create')).not.toBeInTheDocument());
  });
});
