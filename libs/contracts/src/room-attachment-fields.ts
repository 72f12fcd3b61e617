// Without zod: the web app's signed-in shell reads it on its first screen (issue 37's budget).

/** The attachment fields a detail-page upload may send on its own. */
export const roomAttachmentFields = ['imageUrl', 'wiringDiagramUrl', 'seatingLayoutUrl'] as const;
