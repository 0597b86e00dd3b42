import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { loggerOptions, redactUrl } from './logging.js';

describe('logs keep secrets out', () => {
  it('redacts tokens and passwords in URLs', () => {
    expect(redactUrl('/a?token=abc&x=1&password=p')).toBe('/a?token=[REDACTED]&x=1&password=[REDACTED]');
    expect(redactUrl('/a?%74oken=abc&TOKEN=d')).toBe('/a?%74oken=[REDACTED]&TOKEN=[REDACTED]');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });

  it('redacts the Authorization header and password fields', async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { ...loggerOptions('info'), stream } });
    app.post('/x', async (request) => {
      request.log.info({ body: request.body, headers: request.headers }, 'seen');
      return {};
    });
    await app.inject({
      method: 'POST',
      url: '/x?token=secret-token-1',
      headers: { authorization: 'Bearer secret-token-2' },
      payload: { password: 'secret-password-3', username: 'admin' },
    });
    await app.close();
    const log = lines.join('');
    expect(log).toContain('admin');
    for (const secret of ['secret-token-1', 'secret-token-2', 'secret-password-3']) expect(log).not.toContain(secret);
  });
});
