import { settingsPatchSchema, settingsSchema } from '@gantry/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { can } from '../../policy/policy.js';
import type { SettingsService } from './settings.service.js';

/** GET is public (the login page needs the name, logo and language); the full document needs the right. */
export function settingsRoutes(settings: SettingsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/setting',
      {
        config: { action: 'public' },
        schema: {
          tags: ['settings'],
          description: 'Full settings for a user with settings.read; the public subset otherwise.',
          response: { 200: z.union([settingsSchema, settingsSchema.partial()]) },
        },
      },
      (request, reply) => {
        if (can(request.auth?.user, 'settings.read')) return settings.get();
        // Already JSON: a string with a JSON content type is sent as it is, past the typed serializer.
        const untyped: FastifyReply = reply;
        const send = (json: string): void => {
          untyped.type('application/json; charset=utf-8').send(json);
        };
        const cached = settings.cachedPublicJson();
        // Cached (nearly always): answered in this call, no promise for Fastify to wait on (issue 33).
        if (cached !== undefined) {
          send(cached);
          return;
        }
        return settings.getPublicJson().then(send);
      },
    );

    app.put(
      '/setting',
      {
        config: { action: 'settings.write' },
        schema: { tags: ['settings'], body: settingsSchema, response: { 200: settingsSchema } },
      },
      async (request) => settings.replace(request.body),
    );

    app.patch(
      '/setting',
      {
        config: { action: 'settings.write' },
        schema: { tags: ['settings'], body: settingsPatchSchema, response: { 200: settingsSchema } },
      },
      async (request) => settings.patch(request.body),
    );
  };
}
