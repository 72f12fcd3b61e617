import { type BuildingListItem } from '@cm/contracts';
import { screen } from '@testing-library/react';
import { renderWithApp } from '../../../test/render';
import { BuildingCard } from './building-card';

const building = (over: Partial<BuildingListItem> = {}): BuildingListItem => ({
  id: '00000000-0000-4000-8000-000000000001',
  name: 'Science Hall',
  description: null,
  imageUrl: null,
  version: 1,
  roomCount: 3,
  statusCounts: { active: 5, inactive: 1, partial: 0, maintenance: 0 },
  ...over,
});

const renderCard = (item: BuildingListItem) =>
  renderWithApp(<BuildingCard building={item} deleting={false} onEdit={() => {}} onDelete={() => {}} />);

describe(BuildingCard.name, () => {
  it("shows the server's fault count beside the offline chips", () => {
    renderCard(building({ faults: 2 }));
    expect(screen.getByTestId('fault-chip')).toHaveTextContent('2 faults');
    expect(screen.getByTestId('status-chips')).toHaveTextContent('1 inactive');
  });

  it('shows no fault chip without faults, or from a server that does not count them', () => {
    renderCard(building({ faults: 0 }));
    renderCard(building());
    expect(screen.queryByTestId('fault-chip')).not.toBeInTheDocument();
  });
});
