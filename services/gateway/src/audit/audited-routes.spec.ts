import { type ApiRouteDef, apiRoutes } from '@cm/contracts';
import { mayBeAudited } from '../http/route-audit';
import { auditOf } from './audited-routes';

describe(auditOf.name, () => {
  it('writes for no route that ApiRoute leaves without the audit interceptor', () => {
    const routes: ApiRouteDef[] = Object.values(apiRoutes);
    const missed = routes.filter((route) => auditOf(route) && !mayBeAudited(route)).map((r) => r.path);
    expect(missed).toEqual([]);
  });
});
