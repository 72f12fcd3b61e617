import { roomTypes } from '@cm/contracts';
import { roomTags } from './room-tags';

describe(roomTags.name, () => {
  it('tags "computer" types with Computers and "lab" types with Lab Equipment, in any case', () => {
    expect(roomTags('Computer Lab')).toEqual(['Computers', 'Lab Equipment']);
    expect(roomTags('Chemistry Lab')).toEqual(['Lab Equipment']);
    expect(roomTags('COMPUTER room')).toEqual(['Computers']);
    expect(roomTags('Classroom')).toEqual([]);
  });

  it('never gives more than three badges for any of the 13 room types', () => {
    for (const type of roomTypes) expect(roomTags(type).length).toBeLessThanOrEqual(3);
    expect(roomTypes.filter((t) => roomTags(t).length > 0)).toEqual([
      'Computer Lab',
      'Science Lab',
      'Chemistry Lab',
      'Physics Lab',
      'Biology Lab',
    ]);
  });
});
