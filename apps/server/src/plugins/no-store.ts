import type { FastifyInstance } from 'fastify';

/**
 * `Cache-Control: no-store` on every API answer that belongs to one caller: a call made with a
 * session (whatever its answer, errors too) and every call that is not a GET or HEAD (sign-in,
 * registration, password changes: the answers that carry a token). No browser or proxy cache keeps
 * them, so a shared computer's cache or a proxy never holds a caller's data or token.
 *
 * An answer its route marked `public` stays as it is: the route says it is the same for everyone (a
 * market template's picture, an uploaded image by its hash), whoever asks. Answers outside the API
 * (the console's files, the guide) are not touched.
 */
export function registerNoStore(app: FastifyInstance, apiPrefix: string): void {
  // Callback style: every request runs it (see plugins/auth.ts).
  app.addHook('onSend', (request, reply, payload, done) => {
    if (
      (request.auth || (request.method !== 'GET' && request.method !== 'HEAD')) &&
      request.url.startsWith(apiPrefix) &&
      !/\bpublic\b/.test(String(reply.getHeader('cache-control') ?? ''))
    ) {
      reply.header('cache-control', 'no-store');
    }
    done(null, payload);
  });
}
