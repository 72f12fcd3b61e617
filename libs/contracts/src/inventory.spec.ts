import { z } from 'zod';
import { buildingUpdateSchema } from './buildings';
import { equipmentChangedEventSchema, equipmentCreateBodySchema, equipmentUpdateSchema } from './equipment';
import { describeZodError } from './errors';
import { eventSchemas } from './events';
import { events } from './jetstream-names';
import { targetsPageRequestSchema } from './monitoring';
import { roomCreateSchema, roomUpdateSchema } from './rooms';
import { inventoryRoutes } from './routes/inventory';

function messagesOf(result: { success: boolean; error?: import('zod').ZodError }): string {
  if (result.success || !result.error) throw new Error('expected a validation failure');
  return describeZodError(result.error).message;
}

describe('inventory contracts', () => {
  it('keeps a building photo that an edit leaves out, and clears one sent empty', () => {
    expect(buildingUpdateSchema.parse({ name: 'Hall', description: 'x' })).toEqual({
      name: 'Hall',
      description: 'x',
    });
    expect(buildingUpdateSchema.parse({ name: 'Hall', imageUrl: '' })).toEqual({
      name: 'Hall',
      imageUrl: null,
    });
    expect(messagesOf(buildingUpdateSchema.safeParse({ description: 'x' }))).toBe(
      'Building name is required',
    );
  });

  it.each([
    [{ capacity: 'thirty' }, 'Capacity must be a number'],
    [{ capacity: 2.5 }, 'Capacity must be a whole number'],
    [{ capacity: true }, 'Capacity must be a number'],
    [{ capacity: 100_001 }, 'Capacity must be at most 100000'],
    [{ isAdaAccessible: 2 }, 'Must be 0 or 1'],
    [{ floor: '' }, 'Floor is required'],
    [{ name: 'x'.repeat(121) }, 'Room name must be at most 120 characters'],
    [{ roomSize: 'y'.repeat(121) }, 'Room size must be at most 120 characters'],
  ])('refuses a room with %j: %s', (change, message) => {
    const room = { name: '101', type: 'Classroom', floor: '1', ...change };
    expect(messagesOf(roomCreateSchema.safeParse(room))).toBe(message);
  });

  it('sends only what a room update carries, and ignores fields it does not know', () => {
    expect(
      roomUpdateSchema.parse({
        imageUrl: '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
        seatingLayoutUrl: null,
      }),
    ).toEqual({
      imageUrl: '/objects/uploads/0b7e4c1a-9a5e-4c59-a0f3-3c1f2d7e8a90',
      seatingLayoutUrl: null,
    });
    expect(messagesOf(roomUpdateSchema.safeParse({ id: 'x', equipmentCount: 3 }))).toBe(
      'Send at least one field to change',
    );
  });

  it('keeps what an equipment edit leaves out and requires a name', () => {
    expect(equipmentUpdateSchema.parse({ name: 'Projector', notes: '' })).toEqual({
      name: 'Projector',
      notes: null,
    });
    expect(messagesOf(equipmentUpdateSchema.safeParse({ status: 'active' }))).toBe(
      'Equipment name is required',
    );
    expect(messagesOf(equipmentUpdateSchema.safeParse({ name: 'P', roomId: 'room-1' }))).toBe(
      'Must be a valid id',
    );
  });

  it.each(['10.0.0.1', '10.0.0.1-1', '10.0.0.1-254', '', null])('accepts the address %p', (ipAddress) => {
    expect(equipmentCreateBodySchema.safeParse({ name: 'Mic', ipAddress }).success).toBe(true);
  });

  it.each(['10.0.0.1-256', '10.0.0.1-255', '10.0.0.300', '224.0.0.1', 'ten', '10.0.0.1/24'])(
    'refuses the address %p',
    (ipAddress) => {
      expect(equipmentCreateBodySchema.safeParse({ name: 'Mic', ipAddress }).success).toBe(false);
    },
  );

  it('bounds the monitor target page', () => {
    expect(targetsPageRequestSchema.parse({})).toEqual({ limit: 500 });
    expect(targetsPageRequestSchema.safeParse({ limit: 5000 }).success).toBe(false);
  });

  it('names a schema for every event subject', () => {
    expect(Object.keys(eventSchemas).sort()).toEqual(Object.values(events).sort());
    expect(eventSchemas[events.equipmentChanged]).toBe(equipmentChangedEventSchema);
  });

  it('declares every inventory route for signed-in users, with ids checked in the path', () => {
    for (const route of Object.values(inventoryRoutes)) {
      expect(route.access).toBe('user');
      const pathParams = [...route.path.matchAll(/:([A-Za-z]+)/g)].map(([, p]) => p);
      if (pathParams.length)
        expect(Object.keys('params' in route ? route.params.shape : {})).toEqual(pathParams);
    }
  });

  it('describes every inventory body and response as JSON Schema for the API document', () => {
    type JsonSchema = { type?: string; properties?: object; items?: JsonSchema };
    /** The fields a reader of the document sees: an object's, or those of an array's items. */
    const fieldsOf = (schema: JsonSchema) => (schema.type === 'array' ? schema.items : schema);
    const routes = Object.entries(inventoryRoutes) as [string, { body?: z.ZodType; response?: z.ZodType }][];
    for (const [name, route] of routes) {
      if (route.body) {
        const body = z.toJSONSchema(route.body, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
        expect([name, body]).toEqual([
          name,
          expect.objectContaining({ type: 'object', properties: expect.any(Object) }),
        ]);
      }
      if (route.response) {
        const response = z.toJSONSchema(route.response, { io: 'output' }) as JsonSchema;
        expect([name, fieldsOf(response)]).toEqual([
          name,
          expect.objectContaining({ type: 'object', properties: expect.any(Object) }),
        ]);
      }
    }
  });
});
