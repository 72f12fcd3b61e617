import { z } from 'zod';
import { isAddressError, parseAddressTarget } from './address';
import { idSchema, limits, optionalText, requiredText, timestampSchema } from './common';

export const equipmentStatuses = ['active', 'inactive', 'maintenance', 'partial'] as const;
export const equipmentStatusSchema = z.enum(equipmentStatuses, {
  message: `Status must be one of: ${equipmentStatuses.join(', ')}`,
});
export type EquipmentStatus = z.infer<typeof equipmentStatusSchema>;

const ipAddress = z
  .string({ message: 'IP address must be text' })
  .trim()
  .nullish()
  .superRefine((v, ctx) => {
    if (!v) return;
    const parsed = parseAddressTarget(v);
    if (isAddressError(parsed)) ctx.addIssue({ code: 'custom', message: parsed.error });
  })
  .transform((v) => (v ? v : null));

export const equipmentCreateSchema = z.object({
  name: requiredText(limits.name, 'Equipment name'),
  model: optionalText(limits.shortText, 'Model'),
  serialNumber: optionalText(limits.shortText, 'Serial number'),
  ipAddress,
  status: equipmentStatusSchema.default('active'),
  notes: optionalText(limits.notes, 'Notes'),
  imageUrl: optionalText(limits.url, 'Image URL'),
  type: optionalText(limits.shortText, 'Type'),
});
export type EquipmentCreate = z.infer<typeof equipmentCreateSchema>;

/** The web form sends roomId too; the path names the room, so the body's copy is only checked. */
export const equipmentCreateBodySchema = equipmentCreateSchema.extend({ roomId: idSchema.optional() });
export const equipmentUpdateSchema = equipmentCreateSchema.extend({ roomId: idSchema.optional() });
export type EquipmentUpdate = z.infer<typeof equipmentUpdateSchema>;

export const equipmentSchema = z.object({
  id: idSchema,
  roomId: idSchema,
  name: z.string(),
  model: z.string().nullable(),
  serialNumber: z.string().nullable(),
  ipAddress: z.string().nullable(),
  status: z.string(),
  notes: z.string().nullable(),
  imageUrl: z.string().nullable(),
  type: z.string().nullable(),
  lastCheckedAt: timestampSchema.nullable(),
});
export type Equipment = z.infer<typeof equipmentSchema>;
