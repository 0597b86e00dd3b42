import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { AppError } from '../lib/app-error.js';
import { FORM_OVERHEAD_BYTES } from '../lib/upload-receiver.js';
import { registerUploadRoutes } from './upload-routes.js';

describe('the routes that take files', () => {
  it('a route consuming multipart without config.upload stops the server at start', async () => {
    const app = Fastify();
    registerUploadRoutes(app);
    expect(() => app.post('/files', { schema: { consumes: ['multipart/form-data'] } }, async () => ({}))).toThrow(
      /POST \/files takes files but declares no config\.upload/,
    );
    await app.close();
  });

  it('lists them, and refuses a declared length past the rule before the handler runs', async () => {
    const app = Fastify();
    const routes = registerUploadRoutes(app);
    let handled = 0;
    const rule = { fileBytes: 1000, files: 2, tooLarge: () => new AppError('licenceTooLarge') };
    await app.register(async (scope) => {
      scope.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));
      scope.post('/files', { config: { upload: rule } }, async () => {
        handled++;
        return {};
      });
    });
    app.setErrorHandler((error, _request, reply) =>
      reply.code(error instanceof AppError ? error.status : 500).send({ code: (error as AppError).code }),
    );
    await app.ready();
    expect(routes.map(({ method, url }) => `${method} ${url}`)).toEqual(['POST /files']);
    const post = (length: number) =>
      app.inject({
        method: 'POST',
        url: '/files',
        headers: { 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(length) },
        payload: Buffer.alloc(length),
      });
    const limit = 2 * 1000 + FORM_OVERHEAD_BYTES;
    const refused = await post(limit + 1);
    expect([refused.statusCode, refused.json().code]).toEqual([413, 'licenceTooLarge']);
    expect(handled).toBe(0);
    expect((await post(limit)).statusCode).toBe(200);
    expect(handled).toBe(1);
    await app.close();
  });
});
