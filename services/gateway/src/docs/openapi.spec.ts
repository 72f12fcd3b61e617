import {
  type ApiRouteDef,
  apiRoutes,
  buildingCreateSchema,
  buildingSchema,
  ErrorCode,
  idParamsSchema,
} from '@cm/contracts';
import { buildOpenApiDocument, openApiPath } from './openapi';

interface ErrorAnswer {
  description: string;
  headers?: Record<string, unknown>;
  content: {
    'application/json': { schema: { allOf: [unknown, { properties: { code: { enum: string[] } } }] } };
  };
}

describe(buildOpenApiDocument.name, () => {
  const routes: Record<string, ApiRouteDef> = {
    updateBuilding: {
      method: 'PUT',
      path: '/api/buildings/:id',
      summary: 'Edit a building',
      tag: 'Buildings',
      access: 'user',
      params: idParamsSchema,
      body: buildingCreateSchema,
      response: buildingSchema,
    },
  };

  it('offers a session or an API token, but only a session on the token routes', () => {
    const doc = buildOpenApiDocument(apiRoutes) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    expect(doc.paths['/api/tokens'].post.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/audit'].get.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(doc.paths['/api/login'].post.security).toEqual([]);
  });

  it('describes path parameters, the request body and the response from the contract schemas', () => {
    const doc = buildOpenApiDocument(routes) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const op = doc.paths['/api/buildings/{id}'].put;
    expect(op.operationId).toBe('updateBuilding');
    expect(op.security).toEqual([{ session: [] }, { apiToken: [] }]);
    expect(op.parameters).toEqual([
      expect.objectContaining({
        name: 'id',
        in: 'path',
        required: true,
        schema: expect.objectContaining({ format: 'uuid' }),
      }),
    ]);
    const body = (
      op.requestBody as { content: Record<string, { schema: { required: string[]; properties: object } }> }
    ).content['application/json'].schema;
    expect(body.required).toEqual(['name']);
    expect(Object.keys(body.properties)).toEqual(['name', 'description', 'imageUrl']);
    expect(body.properties).toHaveProperty(
      'imageUrl.description',
      expect.stringContaining('a picture uploaded to Classroom Monitor (/objects/uploads/<id>'),
    );
    expect(op.responses).toHaveProperty('200.content.application/json.schema.properties.id');
  });

  it('offers the Idempotency-Key header on the creates, the versioned edits and the upload, and on nothing else', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<
        string,
        Record<string, { operationId: string; parameters?: { name: string; in: string }[] }>
      >;
    };
    const withKey = Object.values(doc.paths)
      .flatMap((ops) => Object.values(ops))
      .filter((op) => op.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key'))
      .map((op) => op.operationId);
    expect(withKey.sort()).toEqual([
      'createBuilding',
      'createEquipment',
      'createMaintenanceWindow',
      'createRoom',
      'createUser',
      'updateBuilding',
      'updateEquipment',
      'updateRoom',
      'upload',
    ]);
  });

  it('documents the ETag of the versioned reads and edits, If-Match and the 412 of the edits and deletes', () => {
    const doc = buildOpenApiDocument() as {
      paths: Record<string, Record<string, { parameters?: { name: string }[]; responses: object }>>;
    };
    const edit = doc.paths['/api/rooms/{id}'].put;
    expect(edit.parameters?.map((p) => p.name)).toContain('If-Match');
    expect(edit.responses).toHaveProperty('200.headers.ETag');
    expect(edit.responses).toHaveProperty('412.content.application/json.schema.allOf.0.properties.current');
    const read = doc.paths['/api/equipment/{id}'].get;
    expect(read.responses).toHaveProperty('200.headers.ETag');
    expect(read.responses).not.toHaveProperty('412');
    // A delete takes If-Match and may be a 412; it answers no record, so no ETag.
    const remove = doc.paths['/api/rooms/{id}'].delete;
    expect(remove.parameters?.map((p) => p.name)).toContain('If-Match');
    expect(remove.responses).toHaveProperty('412.content.application/json.schema.allOf.0.properties.current');
    expect(remove.responses).not.toHaveProperty('204.headers.ETag');
  });

  it('lists each error answer by status with every code the route gives and what it means', () => {
    const doc = buildOpenApiDocument(routes) as {
      paths: Record<string, Record<string, { responses: Record<string, ErrorAnswer> }>>;
    };
    const { responses } = doc.paths['/api/buildings/{id}'].put;
    const codes = (status: string) =>
      responses[status].content['application/json'].schema.allOf[1].properties.code.enum;
    expect(Object.keys(responses)).toEqual(['200', '400', '401', '403', '404', '413', '415', 'default']);
    expect(codes('403')).toEqual([
      ErrorCode.CROSS_SITE_REQUEST,
      ErrorCode.FORBIDDEN,
      ErrorCode.TOTP_ENROLMENT_REQUIRED,
    ]);
    expect(codes('404')).toEqual([ErrorCode.BUILDING_NOT_FOUND]);
    expect(responses['404'].description).toBe(
      '- `INVENTORY.BUILDING_NOT_FOUND`: The building named in the path does not exist',
    );
    expect(codes('default')).toEqual([
      ErrorCode.INTERNAL,
      ErrorCode.SERVICE_UNAVAILABLE,
      ErrorCode.SERVICE_TIMEOUT,
    ]);
  });

  it("adds a route's own codes to those of its shape, and says when to retry", () => {
    const doc = buildOpenApiDocument(apiRoutes) as {
      paths: Record<string, Record<string, { responses: Record<string, ErrorAnswer> }>>;
    };
    const login = doc.paths['/api/login'].post.responses;
    expect(login['401'].content['application/json'].schema.allOf[1].properties.code.enum).toEqual([
      ErrorCode.INVALID_CREDENTIALS,
    ]);
    expect(login['429'].headers).toHaveProperty('Retry-After');
    expect(login).not.toHaveProperty('404');
  });

  it('converts Express parameters to OpenAPI templates', () => {
    expect(openApiPath('/api/rooms/:roomId/equipment')).toBe('/api/rooms/{roomId}/equipment');
  });
});
