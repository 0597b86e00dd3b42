import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cappedTotalDescription,
  countAnswer,
  LIST_QUERY_DESCRIPTION,
  listQuerystring,
} from '../../lib/list-response.js';
import { gatedProject, projectHeaders } from '../../plugins/project-gate.js';
import type { DocumentService } from './document.service.js';

const tags = ['data'];
const collectionParams = z.object({ collection: z.string().min(1).max(64) });
const documentParams = collectionParams.extend({ id: z.string().min(1).max(128) });
const documentAnswer = z.looseObject({ id: z.string() });

const TOTALS =
  `${cappedTotalDescription('documents')} Without a filter the total is the collection's maintained count, ` +
  'always exact.';

/**
 * The generic data layer (backups-data-designer.md §7) under `rest/core/{collection}`, the project in
 * the project gate's (its header). A collection outside the spec's data modules is a 404 naming it.
 * Registered under `rest/`; the project's data summaries are under `rest/spm/project/…`.
 */
export function documentRoutes(
  documents: DocumentService,
  /** Bytes of the project's files (media library, html package); the caller's access is checked before. */
  fileBytes: (projectId: string) => Promise<{ fileServer: number; html: number; truncated: boolean }>,
) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();
    const target = (request: FastifyRequest, collection: string) => documents.target(gatedProject(request), collection);

    typed.get(
      '/core/:collection',
      {
        config: { action: 'project.data.read', project: 'read' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} Any document value may be named by its path (\`a.b.0\`). ${TOTALS}`,
          params: collectionParams,
          headers: projectHeaders,
          querystring: listQuerystring,
          response: { 200: z.array(documentAnswer) },
        },
      },
      async (request, reply) => {
        const { items, total } = await documents.list(target(request, request.params.collection), request.query.query);
        if (total) countAnswer(reply, total);
        return items;
      },
    );

    typed.get(
      '/spm/project/_collectionNames',
      {
        config: { action: 'project.data.read', project: 'read', projectFrom: 'query.projectId' },
        schema: {
          tags,
          description: 'The collections of the project that hold documents, in name order.',
          querystring: z.object({ projectId: z.string().min(1).max(64) }),
          response: { 200: z.array(z.string()) },
        },
      },
      async (request) => (await documents.stats(gatedProject(request))).map((row) => row.collection),
    );

    typed.get(
      '/spm/project/:id/data-stats',
      {
        config: { action: 'project.data.read', project: 'read', projectFrom: 'params.id' },
        schema: {
          tags,
          description:
            "Documents and stored bytes of the project's data, per collection and in all, and the bytes of its " +
            'files (`files`: media library and html package; `truncated`: a lower bound, past 1,000,000 entries).',
          params: z.object({ id: z.string().min(1).max(64) }),
          response: {
            200: z.object({
              documents: z.number(),
              bytes: z.number(),
              collections: z.array(z.object({ collection: z.string(), documents: z.number(), bytes: z.number() })),
              files: z.object({ fileServer: z.number(), html: z.number(), truncated: z.boolean() }),
            }),
          },
        },
      },
      async (request) => {
        const collections = await documents.stats(gatedProject(request));
        return {
          documents: collections.reduce((sum, row) => sum + row.documents, 0),
          bytes: collections.reduce((sum, row) => sum + row.bytes, 0),
          collections,
          files: await fileBytes(request.params.id),
        };
      },
    );

    typed.get(
      '/core/:collection/count',
      {
        config: { action: 'project.data.read', project: 'read' },
        schema: {
          tags,
          description: `\`query\` is the filter alone (or a list query with \`filter\`). ${TOTALS}`,
          params: collectionParams,
          headers: projectHeaders,
          querystring: listQuerystring,
          response: { 200: z.object({ count: z.number() }) },
        },
      },
      async (request, reply) =>
        countAnswer(reply, await documents.count(target(request, request.params.collection), request.query.query)),
    );

    typed.get(
      '/core/:collection/:id',
      {
        config: { action: 'project.data.read', project: 'read' },
        schema: { tags, params: documentParams, headers: projectHeaders, response: { 200: documentAnswer } },
      },
      async (request) => documents.get(target(request, request.params.collection), request.params.id),
    );

    typed.post(
      '/core/:collection',
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: "Saves a new document; its id is the body's `id` or `_id`, or a new one. Answers the document.",
          params: collectionParams,
          headers: projectHeaders,
          response: { 200: documentAnswer },
        },
      },
      async (request) => documents.create(target(request, request.params.collection), request.body),
    );

    typed.put(
      '/core/:collection/:id',
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: 'Replaces the whole document (creates it when there is none); createTime is kept.',
          params: documentParams,
          headers: projectHeaders,
          response: { 200: documentAnswer },
        },
      },
      async (request) => documents.replace(target(request, request.params.collection), request.params.id, request.body),
    );

    typed.patch(
      '/core/:collection/:id',
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          description: "Merges the body's top-level keys into the document.",
          params: documentParams,
          headers: projectHeaders,
          response: { 200: documentAnswer },
        },
      },
      async (request) => documents.merge(target(request, request.params.collection), request.params.id, request.body),
    );

    typed.delete(
      '/core/:collection/:id',
      {
        config: { action: 'project.data.write', project: 'write' },
        schema: {
          tags,
          params: documentParams,
          headers: projectHeaders,
          response: { 200: z.object({ id: z.string() }) },
        },
      },
      async (request) => {
        await documents.delete(target(request, request.params.collection), request.params.id);
        return { id: request.params.id };
      },
    );
  };
}
