export type ConnectionFieldType = 'text' | 'textarea';

/** Spec section 2: a connection detail of a room, kept on this screen only (never saved). */
export interface ConnectionField {
  id: string;
  label: string;
  value: string;
  additionalInfo: string;
  type: ConnectionFieldType;
}

/** A name can be added once it has something besides spaces. */
export const canAddField = (name: string): boolean => name.trim().length > 0;

/** The list with a new empty field named `name` (trimmed), or the same list for a blank name. */
export function addField(
  fields: readonly ConnectionField[],
  name: string,
  type: ConnectionFieldType,
  id: string,
): readonly ConnectionField[] {
  if (!canAddField(name)) return fields;
  return [...fields, { id, label: name.trim(), value: '', additionalInfo: '', type }];
}
