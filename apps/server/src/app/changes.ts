import type { FastifyBaseLogger } from 'fastify';
import type { InvalidationBus } from '../lib/invalidation-bus.js';
import type { Services } from './services.js';

/**
 * Who follows which change another server process (or this one) announces on the database: the one
 * place the caches and the project sites' listeners hear of it. Sessions, licence and settings are
 * subscribed by their own services, which own those caches.
 */
export function followChanges(invalidation: InvalidationBus, services: Services, log: FastifyBaseLogger): void {
  const { siteListeners, sites, projectGate, tables, platformBackups } = services;
  invalidation.subscribe((change) => {
    // Project sites: their listeners, Host map and certificates; their cached project states.
    const followed =
      change.kind === 'site'
        ? siteListeners.changed(change.projectId, false)
        : change.kind === 'all'
          ? siteListeners.resync()
          : undefined;
    if (change.kind === 'site') sites.forget(change.projectId);
    // A tenant disabled or enabled (its row): the front sites' cached project states go too.
    if (change.kind === 'all' || change.kind === 'user') sites.forgetAll();
    followed?.catch((error: unknown) => log.warn({ err: error }, 'project site listeners not updated'));
    // Cached project owners (the project gate) and table definitions.
    projectGate.apply(change);
    tables.apply(change);
    // Another node's platform restore: this one refuses calls and claims no task until it ends.
    platformBackups.apply(change);
  });
}
