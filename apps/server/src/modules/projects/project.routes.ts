import {
  certificateFilesProblem,
  type Language,
  type ProjectCreateBody,
  type ProjectView,
  projectBatchBody,
  projectCreateBody,
  projectUpdateBody,
  projectView,
  statusBody,
  translate,
  usageReportBody,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { COUNT_CAP } from '../../lib/list-count.js';
import { COUNT_ESTIMATED_HEADER, idParams, registerListRoutes } from '../../lib/list-response.js';
import { receiveForm, type UploadRule } from '../../lib/upload-receiver.js';
import { actorOf } from '../../plugins/auth.js';
import { badInputError, findBadInput } from '../../plugins/nul-characters.js';
import { PROJECT_RESOURCE } from './project.repository.js';
import type { ProjectService } from './project.service.js';

const CERT_MAX_BYTES = 64 * 1024;

/** The certificate form: two files (.key, .pem) of at most CERT_MAX_BYTES each, and its fields. */
const certificateForm: UploadRule = {
  fileBytes: CERT_MAX_BYTES,
  files: 2,
  fields: 10,
  missing: () => new AppError('certificatesRequired', { fields: { certKey: 'project.certificatesRequired' } }),
  tooMany: () => new AppError('certificateFiles', { fields: { certKey: 'project.certificateFiles' } }),
};

/** Reads `id`, `domain`, `certKey`, `certPem` from a multipart body, checking the files' rules. */
async function readCertificateForm(request: FastifyRequest) {
  const { fields, files } = await receiveForm(request);
  // Multipart fields do not pass the body hooks: the same door check as every JSON body.
  const problem = findBadInput(fields);
  if (problem) throw badInputError(problem);
  if (files.length < 2)
    throw new AppError('certificatesRequired', { fields: { certKey: 'project.certificatesRequired' } });
  if (certificateFilesProblem(files.map((f) => f.name))) {
    throw new AppError('certificateFiles', { fields: { certKey: 'project.certificateFiles' } });
  }
  const key = files.find((f) => f.name.toLowerCase().endsWith('.key'));
  const pem = files.find((f) => f.name.toLowerCase().endsWith('.pem'));
  // A certificate pair is PEM text: a key block and a certificate block.
  if (
    !key ||
    !pem ||
    !/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(key.data.toString('latin1')) ||
    !/-----BEGIN CERTIFICATE-----/.test(pem.data.toString('latin1'))
  ) {
    throw new AppError('certificateFiles', { fields: { certKey: 'project.certificateFiles' } });
  }
  const id = fields.id;
  if (!id) throw new AppError('validation', { fields: { id: 'error.validation' } });
  return { id, key, pem };
}

/** Which project totals are exact and which estimated, for the API description. */
const PROJECT_TOTALS =
  'Totals (the `count` header with `withCount`, and `project/count`): with no filter, or a filter of only ' +
  '`user` and/or `status` equalities, exact, from counters the database keeps on every write. Any other filter: ' +
  `exact up to ${COUNT_CAP.toLocaleString('en')} projects, above that the planner's estimate, marked by the ` +
  `header \`${COUNT_ESTIMATED_HEADER}: true\`. Totals other than one owner's are kept up to 3 s (refreshed in ` +
  "the background; this server's own writes clear them at once).";

/** Makes a project from a template and starts installing it (the templates module's `project/_template`). */
export type FromTemplate = (
  actor: ReturnType<typeof actorOf>,
  body: ProjectCreateBody,
  language: Language,
) => Promise<ProjectView>;

/**
 * Project calls of console.md §7 (backups come with their issue). A POST project of a template
 * (projectType 'template', type the template id: the spec's form) is `fromTemplate`'s, so that it
 * gets the template's content and its checks too.
 */
export function projectRoutes(projects: ProjectService, fromTemplate?: FromTemplate) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const tags = ['projects'];

    registerListRoutes(app, {
      path: '/project',
      action: 'project.read',
      tags,
      resource: PROJECT_RESOURCE,
      item: projectView,
      totals: PROJECT_TOTALS,
      list: (request, query) => projects.list(actorOf(request).user, query),
      count: (request, filter) => projects.count(actorOf(request).user, filter),
    });

    app.get(
      '/project/available',
      {
        config: { action: 'project.read' },
        schema: { tags, response: { 200: z.array(z.object({ id: z.string(), name: z.string() })) } },
      },
      async (request) => projects.available(actorOf(request).user),
    );

    app.get(
      '/project/:id',
      { config: { action: 'project.read' }, schema: { tags, params: idParams, response: { 200: projectView } } },
      async (request) => projects.get(actorOf(request).user, request.params.id),
    );

    app.post(
      '/project',
      {
        config: { action: 'project.write' },
        schema: { tags, body: projectCreateBody, response: { 200: projectView } },
      },
      async (request) =>
        request.body.projectType === 'template' && fromTemplate
          ? fromTemplate(actorOf(request), request.body, request.language)
          : projects.create(actorOf(request), request.body),
    );

    app.put(
      '/project/:id',
      {
        config: { action: 'project.write' },
        schema: { tags, params: idParams, body: projectUpdateBody, response: { 200: projectView } },
      },
      async (request) => projects.update(actorOf(request), request.params.id, request.body),
    );

    app.get(
      '/project/_expand',
      {
        config: { action: 'project.read' },
        schema: {
          tags,
          description:
            'The project extension schema of settings/project (fields, editableFields, batchChangeFields), for the project form and the batch change of every signed-in user.',
        },
      },
      async () => projects.expandSchema(),
    );

    app.patch(
      '/project/_batch',
      {
        config: { action: 'project.write' },
        schema: {
          tags,
          description:
            'Batch change (settings/project): `extra` values of batch-changeable extension fields set on every project of `ids`, all or none; a project the caller may not change: 404.',
          body: projectBatchBody,
          response: { 200: z.object({ updated: z.number(), message: z.string() }) },
        },
      },
      async (request) => ({
        ...(await projects.batchChange(actorOf(request), request.body)),
        message: translate('project.batchChanged', request.language),
      }),
    );

    app.patch(
      '/project/:id/status',
      {
        config: { action: 'project.write' },
        schema: { tags, params: idParams, body: statusBody, response: { 200: projectView } },
      },
      async (request) => projects.setStatus(actorOf(request), request.params.id, request.body.status),
    );

    app.delete(
      '/project/:id',
      {
        config: { action: 'project.write' },
        schema: { tags, params: idParams, response: { 200: z.object({ id: z.string() }) } },
      },
      async (request) => {
        await projects.delete(actorOf(request), request.params.id);
        return { id: request.params.id };
      },
    );

    app.post(
      '/project/cert',
      {
        config: { action: 'project.write', upload: certificateForm },
        schema: {
          tags,
          description: 'Multipart: id, domain, certKey (.key), certPem (.pem); one of each.',
          consumes: ['multipart/form-data'],
          response: { 200: z.object({ key: z.string(), pem: z.string() }) },
        },
      },
      async (request) => {
        const form = await readCertificateForm(request);
        return projects.saveCertificate(actorOf(request), form.id, { key: form.key, pem: form.pem });
      },
    );

    app.get(
      '/project/:id/cert',
      {
        config: { action: 'project.read' },
        schema: { tags, params: idParams, response: { 200: z.object({ key: z.string(), pem: z.string() }) } },
      },
      async (request) => projects.certificate(actorOf(request).user, request.params.id),
    );

    app.post(
      '/project/:id/runtime-key',
      {
        config: { action: 'project.write' },
        schema: {
          tags,
          description: 'Issues the key a project runtime reports its usage with (shown once; replaces the old one).',
          params: idParams,
          response: { 200: z.object({ key: z.string() }) },
        },
      },
      async (request) => ({ key: await projects.issueRuntimeKey(actorOf(request), request.params.id) }),
    );

    app.put(
      '/project/:id/usage',
      {
        config: { action: 'project.report' },
        schema: {
          tags,
          description:
            'A project runtime reports what it uses (by grant measure) and its devices by type. ' +
            'Authenticated by the header `x-project-key` (see runtime-key) or an administrator token.',
          params: idParams,
          headers: z.object({ 'x-project-key': z.string().max(128).optional() }),
          body: usageReportBody,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const key = request.headers['x-project-key'];
        await projects.reportUsage(
          request.params.id,
          { user: request.auth?.user, key: typeof key === 'string' ? key : undefined },
          request.body,
        );
        return reply.code(204).send(null);
      },
    );
  };
}
