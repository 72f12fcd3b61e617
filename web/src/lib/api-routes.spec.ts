import { apiRoutes as contractRoutes } from '@cm/contracts';
import { apiRoutes } from './api-routes';

// The web's route table is written from the contracts' (scripts/web-api-routes.mjs); a route added,
// moved or changed in the contracts without rewriting it fails here.
const plainFields = ['method', 'path', 'bodyContentType', 'responseContentType', 'idempotent', 'versioned'];
const schemaFields = ['params', 'query', 'body', 'response'];
// The reads kept for offline use: the inventory's, by tag (`kept` stands in for the tag).
const keptTags = ['Buildings', 'Rooms', 'Equipment'];

describe("the web's route table", () => {
  it("is the contracts' table without its schemas: run `node scripts/web-api-routes.mjs` when not", () => {
    const expected = Object.fromEntries(
      Object.entries(contractRoutes).map(([name, route]) => {
        const fields = route as unknown as Record<string, unknown>;
        return [
          name,
          Object.fromEntries([
            ...plainFields.filter((f) => fields[f] !== undefined).map((f) => [f, fields[f]]),
            ...schemaFields.filter((f) => fields[f] !== undefined).map((f) => [f, true]),
            ...(fields.method === 'GET' && keptTags.includes(fields.tag as string) ? [['kept', true]] : []),
          ]),
        ];
      }),
    );
    expect(apiRoutes).toEqual(expected);
    expect(Object.keys(apiRoutes)).toEqual(Object.keys(contractRoutes));
  });
});
