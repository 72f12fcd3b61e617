import { type roomAttachmentFields } from '@cm/contracts';

export type RoomAttachmentField = (typeof roomAttachmentFields)[number];

// Spec section 8: "{what} uploaded successfully" after a detail-page upload. Removing is ours
// (docs/spec-differences.md).
export const attachments: Record<
  RoomAttachmentField,
  { what: string; dialogTitle: string; removeLabel: string }
> = {
  imageUrl: { what: 'Room photo', dialogTitle: 'Change Room Photo', removeLabel: 'Remove Room Photo' },
  wiringDiagramUrl: {
    what: 'Wiring diagram',
    dialogTitle: 'Upload Wiring Diagram',
    removeLabel: 'Remove Wiring Diagram',
  },
  seatingLayoutUrl: {
    what: 'Seating layout',
    dialogTitle: 'Upload Seating Layout',
    removeLabel: 'Remove Seating Layout',
  },
};
