import { Hono } from 'hono';
import type { AuthEnv } from '../../auth/middleware.js';
import { filesGuard } from './guard.js';
import type { AppContext } from '../../context.js';
import { DataSources, type DataSourceOptions, viewOf } from '../../files/data-sources/index.js';
import { dataSourceKey } from '../../files/data-sources/secret-box.js';
import { readOptionalObject } from '../read-json.js';

const MAX_BODY_BYTES = 16 * 1024;

/**
 * Files API data sources and onboarding (spec 4.11), header app_key only; a source belongs to the
 * key's group and is shared by all its apps' keys.
 *
 * - GET    /files/v1/onboarding/identities  → {aws {trust_account_id, external_id}, azure {app_id, tenant_id}, gcp {service_account_email, external_id}}
 * - POST   /files/v1/data-sources           → {data_source_id}
 * - GET    /files/v1/data-sources           → {data_sources: [{data_source_id, name, provider, auth_method, bucket, region, endpoint, provider_specific_details, created_at}]}
 * - DELETE /files/v1/data-sources/{id}      → {data_source_id, status: 'deleted'}
 * - POST   /files/v1/data-sources/{id}/test → 200 {data_source_id, result: ok|failed, checks {read, write}, message, error_id}
 *
 * name is optional; the same bucket registered twice in a group answers 409 conflict. Another
 * group's source answers 403 forbidden, an unknown or deleted id 404 not_found.
 */
export function filesDataSourceRoutes(ctx: AppContext, opts: DataSourceOptions = {}): Hono {
  if (dataSourceKey(ctx.config).isDevDefault) {
    ctx.logger.warn(
      'FOLIO_DATA_SOURCE_KEY is unset: data-source secrets are encrypted with the published development key; set 64 hex digits before registering real credentials',
    );
  }
  const app = new Hono<AuthEnv>();
  const sources = new DataSources(ctx, opts);
  const [ipLimit, withKey, keyLimit] = filesGuard(ctx);

  app.get('/files/v1/onboarding/identities', ipLimit, withKey, keyLimit, (c) => c.json(sources.identities(c.get('auth').groupId)));

  app.post('/files/v1/data-sources', ipLimit, withKey, keyLimit, async (c) => {
    const { groupId, appId } = c.get('auth');
    const source = await sources.register(groupId, appId, await readOptionalObject(c.req.raw, MAX_BODY_BYTES));
    ctx.logger.info(
      { data_source_id: source.data_source_id, group_id: groupId, app_id: appId, provider: source.provider, auth_method: source.auth_method },
      'data source registered',
    );
    return c.json({ data_source_id: source.data_source_id });
  });

  app.get('/files/v1/data-sources', ipLimit, withKey, keyLimit, (c) => c.json({ data_sources: sources.list(c.get('auth').groupId).map(viewOf) }));

  app.delete('/files/v1/data-sources/:id', ipLimit, withKey, keyLimit, (c) => {
    const { groupId, appId } = c.get('auth');
    const source = sources.remove(groupId, c.req.param('id'));
    ctx.logger.info({ data_source_id: source.data_source_id, group_id: groupId, app_id: appId }, 'data source deleted');
    return c.json({ data_source_id: source.data_source_id, status: 'deleted' });
  });

  app.post('/files/v1/data-sources/:id/test', ipLimit, withKey, keyLimit, async (c) => c.json(await sources.test(c.get('auth').groupId, c.req.param('id'))));

  return app as unknown as Hono;
}
