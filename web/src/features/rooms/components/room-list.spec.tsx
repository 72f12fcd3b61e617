import { type RoomListItem } from '@cm/contracts';
import { render, screen, within } from '@testing-library/react';
import { type RoomClasses } from '../lib/room-classes';
import { RoomList } from './room-list';

let n = 0;
const room = (name: string, floor: string, type = 'Classroom'): RoomListItem => ({
  id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`,
  buildingId: '00000000-0000-4000-8000-000000000000',
  name,
  type,
  floor,
  capacity: 30,
  roomSize: null,
  isAdaAccessible: 1,
  imageUrl: null,
  wiringDiagramUrl: null,
  seatingLayoutUrl: null,
  version: 1,
  equipmentCount: 2,
  statusCounts: { active: 2, inactive: 0, partial: 0, maintenance: 0 },
});

describe(RoomList.name, () => {
  it('shows one heading per floor in the spec order, each with its room count', () => {
    render(
      <RoomList
        rooms={[
          room('201', '2'),
          room('Studio', 'Mezzanine'),
          room('102', '1'),
          room('Boiler', 'B1'),
          room('101', '1'),
          room('Dock', 'LL'),
          room('1001', '10'),
          room('Vault', 'SUB'),
        ]}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    const groups = screen.getAllByRole('region');
    expect(groups.map((g) => within(g).getByRole('heading', { level: 2 }).textContent)).toEqual([
      'Floor LL',
      'Floor B1',
      'Floor SUB',
      'Floor 1',
      'Floor 2',
      'Floor 10',
      'Floor Mezzanine',
    ]);
    const floor1 = screen.getByRole('region', { name: 'Floor 1' });
    expect(within(floor1).getByText('2 rooms')).toBeInTheDocument();
    expect(
      within(floor1)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['101', '102']);
    expect(within(screen.getByRole('region', { name: 'Floor 2' })).getByText('1 room')).toBeInTheDocument();
  });

  it('shows the tag badges of each room type on its card', () => {
    render(
      <RoomList
        rooms={[
          room('Lab 1', '1', 'Computer Lab'),
          room('Chem', '1', 'Chemistry Lab'),
          room('A', '1', 'Classroom'),
        ]}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    const card = (name: string) =>
      screen.getByRole('heading', { name }).closest('[data-testid="room-card"]') as HTMLElement;
    expect(within(card('Lab 1')).getByText('Computers')).toBeInTheDocument();
    expect(within(card('Lab 1')).getByText('Lab Equipment')).toBeInTheDocument();
    expect(within(card('Chem')).queryByText('Computers')).not.toBeInTheDocument();
    expect(within(card('Chem')).getByText('Lab Equipment')).toBeInTheDocument();
    expect(within(card('A')).queryByText('Lab Equipment')).not.toBeInTheDocument();
    expect(within(card('A')).getByText('Classroom · Floor 1')).toBeInTheDocument();
    expect(within(card('A')).getByText('Capacity 30')).toBeInTheDocument();
    expect(within(card('A')).getByText('2 Equipment')).toBeInTheDocument();
  });

  it("shows the server's fault count on a room's card, and no chip where there is none", () => {
    render(
      <RoomList
        rooms={[{ ...room('Lab 2', '1'), faults: 2 }, { ...room('B', '1'), faults: 0 }, room('C', '1')]}
        onEdit={() => {}}
        onDelete={() => {}}
      />,
    );
    const [chip, ...others] = screen.getAllByTestId('fault-chip');
    expect(others).toHaveLength(0);
    expect(chip!.closest('[data-testid="room-card"]')).toHaveTextContent('Lab 2');
    expect(chip).toHaveTextContent('2 faults');
    // Every device answers ping: faults are apart from the offline chips.
    expect(screen.queryByTestId('status-chips')).not.toBeInTheDocument();
  });

  it("says each room's next class on its card and, sorted by it, puts rooms in use first and rooms without one last", () => {
    const rooms = [room('101', '1'), room('102', '1'), room('201', '2'), room('202', '2')];
    const [r101, , r201, r202] = rooms;
    const lines = new Map([
      [r101.id, { text: 'Next class 11:00–12:15, PHYS 101', order: 11 }],
      [r201.id, { text: 'In use until 10:15', order: 9 }],
      [r202.id, { text: 'Next class 10:30–11:45, ECON 101', order: 10.5 }],
    ]);
    const classes: RoomClasses = {
      any: true,
      textOf: (id) => lines.get(id)?.text ?? null,
      orderOf: (id) => lines.get(id)?.order ?? Infinity,
    };
    const names = () =>
      screen.getAllByTestId('room-card').map((c) => within(c).getByRole('heading').textContent);
    const { rerender } = render(
      <RoomList rooms={rooms} classes={classes} onEdit={() => {}} onDelete={() => {}} />,
    );
    expect(names()).toEqual(['101', '102', '201', '202']);
    const card = (name: string) =>
      screen.getByRole('heading', { name }).closest('[data-testid="room-card"]') as HTMLElement;
    expect(within(card('201')).getByTestId('next-class')).toHaveTextContent('In use until 10:15');
    expect(within(card('102')).queryByTestId('next-class')).not.toBeInTheDocument();

    rerender(<RoomList rooms={rooms} classes={classes} byNextClass onEdit={() => {}} onDelete={() => {}} />);
    expect(names()).toEqual(['201', '202', '101', '102']);
    expect(screen.getByRole('heading', { name: 'By next class' })).toBeInTheDocument();
  });
});
