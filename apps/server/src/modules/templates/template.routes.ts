import {
  INDUSTRIES,
  LANGUAGES,
  projectFromTemplateBody,
  projectView,
  TEMPLATE_IMAGE_LIMITS,
  TEMPLATE_LIMITS,
  templateListQuery,
  templatePatchBody,
  templatePublishBody,
  templateView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { receiveFile, streamFile } from '../../lib/upload-receiver.js';
import { actorOf, sessionOf } from '../../plugins/auth.js';
import { backupUpload, disposition } from '../backups/backup-http.js';
import type { TemplateService } from './template.service.js';

const idParams = z.object({ id: z.string().min(1).max(128) });
const pictureQuery = z.object({ v: z.string().max(32).optional(), lang: z.enum(LANGUAGES).optional() });

/**
 * Template calls of console.md §7: the gallery and one template (public: the spec sends no token; a
 * token, when sent, adds the caller's own templates and whether it may use each), their pictures,
 * the package (its owner), and `POST project/_template`.
 */
export function templateRoutes(templates: TemplateService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['templates'];

    app.get(
      '/templates',
      {
        config: { action: 'public' },
        schema: {
          tags,
          description:
            'The template gallery: `name_contains` (part of the name, either language, case-insensitive), ' +
            '`industry`; `skip`/`limit` page it (the total in the `count` header). Without a token: the market ' +
            '(built-in and administrator-published templates); with one, also the caller’s own.',
          querystring: templateListQuery,
          response: { 200: z.array(templateView) },
        },
      },
      async (request, reply) => {
        const { items, total } = await templates.list(request.auth?.user, request.query, request.language);
        void reply.header('count', String(total));
        return items;
      },
    );

    app.get(
      '/templates/:id',
      {
        config: { action: 'public' },
        schema: { tags, params: idParams, response: { 200: templateView } },
      },
      async (request) => templates.get(request.auth?.user, request.params.id, request.language),
    );

    /**
     * A drawn picture, as the template itself: to whoever may see it (a private template's to its
     * owner and the administrator, by token; anyone else: not found, nothing of it named).
     */
    const picture = async (request: FastifyRequest, reply: FastifyReply, kind: 'cover' | 'overview') => {
      const { id } = idParams.parse(request.params);
      const { lang } = pictureQuery.parse(request.query);
      const { svg, cacheable } = await templates.picture(request.auth?.user, id, kind, lang ?? request.language);
      return reply
        .type('image/svg+xml')
        .header('cache-control', cacheable ? 'public, max-age=3600' : 'no-store')
        .send(svg);
    };

    app.get(
      '/templates/:id/cover.svg',
      { config: { action: 'public' }, schema: { tags, params: idParams, querystring: pictureQuery } },
      async (request, reply) => picture(request, reply, 'cover'),
    );

    app.get(
      '/templates/:id/images/1.svg',
      { config: { action: 'public' }, schema: { tags, params: idParams, querystring: pictureQuery } },
      async (request, reply) => picture(request, reply, 'overview'),
    );

    app.post(
      '/templates/images',
      {
        config: {
          action: 'template.write',
          upload: {
            fileBytes: TEMPLATE_IMAGE_LIMITS.bytes,
            tooLarge: () =>
              new AppError('payloadTooLarge', {
                message: 'template.imageTooLarge',
                params: { mb: TEMPLATE_IMAGE_LIMITS.bytes / 1024 / 1024 },
              }),
          },
        },
        schema: {
          tags,
          description:
            'Multipart `file`: a cover or description image for a template card (PNG, JPEG, GIF or WebP by its ' +
            `content, at most ${TEMPLATE_IMAGE_LIMITS.bytes / 1024 / 1024} MB and ${TEMPLATE_IMAGE_LIMITS.sideMax} × ` +
            `${TEMPLATE_IMAGE_LIMITS.sideMax} pixels; SVG refused). Answers its URL, for \`cover\` and \`images\`.`,
          consumes: ['multipart/form-data'],
          response: { 200: z.object({ url: z.string() }) },
        },
      },
      async (request) => ({ url: await templates.images.save(await receiveFile(request)) }),
    );

    app.get(
      '/templates/images/:name',
      {
        config: { action: 'public' },
        schema: { tags, params: z.object({ name: z.string().regex(/^[0-9a-f]{64}\.(png|jpg|gif|webp)$/) }) },
      },
      async (request, reply) => {
        const { mime, bytes } = await templates.images.read(request.params.name);
        return reply
          .header('content-type', mime)
          .header('cache-control', 'public, max-age=31536000, immutable')
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          .send(bytes);
      },
    );

    app.get(
      '/templates/:id/package',
      {
        config: { action: 'template.write', tokenInQuery: true },
        schema: {
          tags,
          description: 'The template package (a project backup archive), to its owner only.',
          params: idParams,
          querystring: z.object({ token: z.string().max(256).optional() }),
        },
      },
      async (request, reply) => {
        const file = await templates.download(sessionOf(request).user, request.params.id);
        return reply
          .type('application/zip')
          .header('content-disposition', disposition(file.name))
          .header('content-length', String(file.size))
          .send(file.stream);
      },
    );

    app.post(
      '/templates',
      {
        config: { action: 'template.write' },
        schema: {
          tags,
          description:
            'Publishes a project the caller owns as a template (a task: `historycomputed` progress of the ' +
            'project): the administrator to the market, a tenant for its own use. The project’s accounts ' +
            '(user, safezone, oauth_app, message) are never carried.',
          body: templatePublishBody,
          response: { 200: z.object({ id: z.string(), requestId: z.string(), templateId: z.string() }) },
        },
      },
      async (request) => templates.publish(sessionOf(request).user, request.body, request.language),
    );

    app.post(
      '/templates/import',
      {
        config: { action: 'template.write', upload: backupUpload(templates.uploadMaxBytes) },
        schema: {
          tags,
          description:
            'Multipart `file`: a template package (a project backup archive, `.zip`), verified whole as an ' +
            'uploaded backup is; listed as the caller’s template (`name`, `industry` in the query).',
          consumes: ['multipart/form-data'],
          querystring: z.object({
            name: z.string().trim().max(TEMPLATE_LIMITS.nameMax).optional(),
            industry: z.enum(INDUSTRIES).optional(),
          }),
          response: { 200: templateView },
        },
      },
      async (request) =>
        streamFile(request, (filename, file) =>
          templates.import(sessionOf(request).user, filename, file, request.query, request.language),
        ),
    );

    app.patch(
      '/templates/:id',
      {
        config: { action: 'template.write' },
        schema: { tags, params: idParams, body: templatePatchBody, response: { 200: templateView } },
      },
      async (request) => templates.patch(sessionOf(request).user, request.params.id, request.body, request.language),
    );

    app.delete(
      '/templates/:id',
      {
        config: { action: 'template.write' },
        schema: { tags, params: idParams, response: { 200: z.object({ id: z.string() }) } },
      },
      async (request) => {
        await templates.remove(sessionOf(request).user, request.params.id);
        return { id: request.params.id };
      },
    );

    app.post(
      '/project/_template',
      {
        config: { action: 'project.write' },
        schema: {
          tags: ['projects', ...tags],
          description:
            'A project from a template: the project body plus `projectId`, `collections` (parts to install: ' +
            'model, node, report, table, dashboard; all when absent) and `url` (informative: the server installs ' +
            'its own stored package). The project is created at once; its content comes as a task (`task`).',
          body: projectFromTemplateBody,
          response: {
            200: projectView.extend({ task: z.object({ id: z.string(), requestId: z.string() }) }),
          },
        },
      },
      async (request) => templates.createProject(actorOf(request), request.body, request.language),
    );
  };
}
