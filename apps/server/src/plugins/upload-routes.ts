import type { FastifyInstance, preValidationHookHandler } from 'fastify';
import { formBytesMax, tooLargeError, type UploadRule } from '../lib/upload-receiver.js';

/** A route that receives files, as the route table has it. */
export interface UploadRoute {
  method: string;
  url: string;
  rule: UploadRule;
}

/**
 * Every route that receives files, known from the route table as routes are added: a route whose
 * schema consumes multipart/form-data declares `config.upload` (else the server stops at start), and a
 * request whose `Content-Length` is past the rule's limits is refused before its body is read
 * (after the API's session and policy checks, which run first, so a caller without rights learns
 * nothing of the limits).
 * Registered before the routes; answers the list, which fills as they are added.
 */
export function registerUploadRoutes(app: FastifyInstance): readonly UploadRoute[] {
  const routes: UploadRoute[] = [];
  app.addHook('onRoute', (route) => {
    const rule = route.config?.upload;
    if (!rule) {
      if (route.schema?.consumes?.includes('multipart/form-data')) {
        throw new Error(`Route ${String(route.method)} ${route.url} takes files but declares no config.upload`);
      }
      return;
    }
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, rule });
    const max = formBytesMax(rule);
    if (max === undefined) return;
    const beforeBody: preValidationHookHandler = (request, _reply, done) => {
      const declared = Number(request.headers['content-length']);
      done(declared > max ? tooLargeError(rule) : undefined);
    };
    const existing = route.preValidation;
    route.preValidation = existing === undefined ? [beforeBody] : [existing, beforeBody].flat();
  });
  return routes;
}
