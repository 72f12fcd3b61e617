import { addField, canAddField } from './connection-fields';

describe(addField.name, () => {
  it('adds an empty field with the name trimmed and the chosen type', () => {
    expect(addField([], '  Projector HDMI  ', 'textarea', 'a')).toEqual([
      { id: 'a', label: 'Projector HDMI', value: '', additionalInfo: '', type: 'textarea' },
    ]);
  });

  it('keeps the list as it was for a blank name', () => {
    const fields = addField([], 'Wall plate', 'text', 'a');
    expect(addField(fields, '   ', 'text', 'b')).toBe(fields);
    expect(canAddField('')).toBe(false);
    expect(canAddField(' \t')).toBe(false);
    expect(canAddField(' x')).toBe(true);
  });
});
