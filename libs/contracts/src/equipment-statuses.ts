// Without zod: the web app's first screens read it (issue 37's budget).

export const equipmentStatuses = ['active', 'inactive', 'maintenance', 'partial'] as const;
