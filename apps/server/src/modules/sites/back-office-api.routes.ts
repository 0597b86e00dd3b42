import {
  mediaPathView,
  mediaTreeNode,
  mediaUploadedView,
  siteDoneView,
  siteItemParams,
  siteMediaPathBody,
  siteMediaPathQuery,
  siteMediaRenameBody,
  siteMediaTreeQuery,
  siteMediaUploadQuery,
  siteParams,
  siteRoleBody,
  siteRoleView,
  siteUserBody,
  siteUserUpdateBody,
  siteUserView,
} from '@gantry/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { streamFiles } from '../../lib/upload-receiver.js';
import { mediaUpload } from '../media/media.routes.js';
import { backOfficeOf } from './back-office-gate.js';
import type { SiteRouteDeps } from './site-http.js';

/**
 * The back office's own calls (issue 15) `/admin/_p_{id}/api/…` for its signed-in caller: project
 * users and roles (the project administrator), and the media library with the public folder's
 * permissions for project users. Registered in the back office's calls' scope (site.routes.ts: files
 * taken, answers never stored).
 */
export function backOfficeApiRoutes(deps: SiteRouteDeps) {
  const { sites, media } = deps;
  /** The signed-in caller of the request's back office (the gate found it). */
  const callerOf = (request: FastifyRequest) => backOfficeOf(request).caller;
  /** The media library as the caller uses it. */
  const mediaOf = (request: FastifyRequest) => {
    const { caller, project } = backOfficeOf(request);
    return sites.mediaContext(caller, project);
  };
  const usersAnswer = { 200: z.array(siteUserView) };
  const rolesAnswer = { 200: z.array(siteRoleView) };
  const treeAnswer = { 200: z.array(mediaTreeNode) };

  return async (api: FastifyInstance) => {
    const typed = api.withTypeProvider<ZodTypeProvider>();

    // Project users and roles (the project administrator).
    typed.get(
      '/admin/_p_:id/api/users',
      { schema: { hide: true, params: siteParams, response: usersAnswer } },
      async (request) => sites.listUsers(callerOf(request)),
    );
    typed.post(
      '/admin/_p_:id/api/users',
      { schema: { hide: true, params: siteParams, body: siteUserBody, response: { 200: siteUserView } } },
      async (request) => sites.createUser(callerOf(request), request.body),
    );
    typed.patch(
      '/admin/_p_:id/api/users/:item',
      { schema: { hide: true, params: siteItemParams, body: siteUserUpdateBody, response: { 200: siteUserView } } },
      async (request) => sites.updateUser(callerOf(request), request.params.item, request.body),
    );
    typed.delete(
      '/admin/_p_:id/api/users/:item',
      { schema: { hide: true, params: siteItemParams, response: { 200: siteDoneView } } },
      async (request) => {
        await sites.deleteUser(callerOf(request), request.params.item);
        return { ok: true as const };
      },
    );
    typed.get(
      '/admin/_p_:id/api/roles',
      { schema: { hide: true, params: siteParams, response: rolesAnswer } },
      async (request) => sites.listRoles(callerOf(request)),
    );
    typed.post(
      '/admin/_p_:id/api/roles',
      { schema: { hide: true, params: siteParams, body: siteRoleBody, response: { 200: siteRoleView } } },
      async (request) => sites.createRole(callerOf(request), request.body),
    );
    typed.patch(
      '/admin/_p_:id/api/roles/:item',
      {
        schema: { hide: true, params: siteItemParams, body: siteRoleBody.partial(), response: { 200: siteRoleView } },
      },
      async (request) => sites.updateRole(callerOf(request), request.params.item, request.body),
    );
    typed.delete(
      '/admin/_p_:id/api/roles/:item',
      { schema: { hide: true, params: siteItemParams, response: { 200: siteDoneView } } },
      async (request) => {
        await sites.deleteRole(callerOf(request), request.params.item);
        return { ok: true as const };
      },
    );

    // The media library, with the public folder's permissions for project users.
    typed.get(
      '/admin/_p_:id/api/media/tree',
      { schema: { hide: true, params: siteParams, querystring: siteMediaTreeQuery, response: treeAnswer } },
      async (request, reply) => {
        const answer = await media.tree(await mediaOf(request), request.query.path ?? '', true);
        if (answer.truncated) reply.header('x-tree-truncated', 'true');
        return answer.nodes;
      },
    );
    typed.post(
      '/admin/_p_:id/api/media/dir',
      { schema: { hide: true, params: siteParams, body: siteMediaPathBody, response: { 200: mediaTreeNode } } },
      async (request) => media.mkdir(await mediaOf(request), request.body.path),
    );
    typed.post(
      '/admin/_p_:id/api/media/rename',
      { schema: { hide: true, params: siteParams, body: siteMediaRenameBody, response: { 200: mediaPathView } } },
      async (request) => media.rename(await mediaOf(request), request.body.path, request.body.name),
    );
    typed.delete(
      '/admin/_p_:id/api/media',
      { schema: { hide: true, params: siteParams, querystring: siteMediaPathQuery, response: { 200: mediaPathView } } },
      async (request) => {
        await media.remove(await mediaOf(request), request.query.path);
        return { path: request.query.path };
      },
    );
    typed.post(
      '/admin/_p_:id/api/media/upload',
      {
        config: { upload: mediaUpload(media) },
        schema: {
          hide: true,
          params: siteParams,
          querystring: siteMediaUploadQuery,
          response: { 200: mediaUploadedView },
        },
      },
      async (request) => {
        const where = await mediaOf(request);
        const folder = media.uploadFolder(where, request.query.path ?? '');
        return streamFiles(request, (name, file) =>
          media.upload(where, folder, name, file, request.query.overwrite === 'true'),
        );
      },
    );
  };
}
