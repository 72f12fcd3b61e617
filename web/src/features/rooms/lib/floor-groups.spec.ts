import { compareFloors, groupRoomsByFloor } from './floor-groups';

const room = (name: string, floor: string | null) => ({ name, floor });

describe(groupRoomsByFloor.name, () => {
  it('orders LL, B3, B2, B1, SB, SUB, then numbers ascending, then other text alphabetically, then Unspecified', () => {
    const rooms = [
      room('Loft', 'Mezzanine'),
      room('201', '2'),
      room('1001', '10'),
      room('Vault', 'SUB'),
      room('Boiler', 'B1'),
      room('101', '1'),
      room('Dock', 'LL'),
      room('Archive', 'B3'),
      room('Roof deck', 'Attic'),
      room('Lost', null),
      room('Store', 'SB'),
      room('Pit', 'B2'),
      room('Blank', '  '),
    ];
    const sut = groupRoomsByFloor(rooms);
    expect(sut.map((g) => g.heading)).toEqual([
      'Floor LL',
      'Floor B3',
      'Floor B2',
      'Floor B1',
      'Floor SB',
      'Floor SUB',
      'Floor 1',
      'Floor 2',
      'Floor 10',
      'Floor Attic',
      'Floor Mezzanine',
      'Unspecified',
    ]);
    expect(sut.at(-1)!.rooms.map((r) => r.name)).toEqual(['Blank', 'Lost']);
  });

  it('keeps the rooms of a floor together, sorted by name with numbers in numeric order', () => {
    const sut = groupRoomsByFloor([room('110', '1'), room('9', '1'), room('Lab A', '2'), room('102', '1')]);
    expect(sut).toEqual([
      { floor: '1', heading: 'Floor 1', rooms: [room('9', '1'), room('102', '1'), room('110', '1')] },
      { floor: '2', heading: 'Floor 2', rooms: [room('Lab A', '2')] },
    ]);
  });

  it('sorts numeric floors by value, not as text', () => {
    expect(['10', '2', '-1', '1.5', '1'].sort(compareFloors)).toEqual(['-1', '1', '1.5', '2', '10']);
  });

  it('recognises the leading codes in any letter case', () => {
    expect(['1', 'b1', 'll'].sort(compareFloors)).toEqual(['ll', 'b1', '1']);
  });

  it('answers no groups for no rooms', () => {
    expect(groupRoomsByFloor([])).toEqual([]);
  });
});
