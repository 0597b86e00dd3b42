import { spawnSync } from 'node:child_process';
import { Writable } from 'node:stream';
import fc from 'fast-check';
import Fastify from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { registerErrorHandler } from './error-handler.js';
import { loggerOptions, RequestLog, redactUrl, requestLine } from './logging.js';

describe('logs keep secrets out', () => {
  it('redacts tokens and passwords in URLs', () => {
    expect(redactUrl('/a?token=abc&x=1&password=p')).toBe('/a?token=[REDACTED]&x=1&password=[REDACTED]');
    expect(redactUrl('/a?%74oken=abc&TOKEN=d')).toBe('/a?%74oken=[REDACTED]&TOKEN=[REDACTED]');
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });

  it('redacts a secret parameter however its name is spelled', () => {
    const spellings = [
      'token%00',
      'Token',
      'tOkEn',
      '%54oken',
      '%2574oken',
      'to+ken',
      '%20token',
      'token[]',
      'token%5B%5D',
      '%EF%BD%94%EF%BD%8F%EF%BD%8B%EF%BD%85%EF%BD%8E',
      'access_token',
      'newPassword',
      'client_secret',
      'Code',
    ];
    for (const name of spellings) {
      expect(redactUrl(`/a?x=1&${name}=s3cret&y=2`), name).toBe(`/a?x=1&${name}=[REDACTED]&y=2`);
    }
    expect(redactUrl('/a?token%00')).toBe('/a?token%00=[REDACTED]');
    // Names that only resemble one are kept, so the line stays useful.
    expect(redactUrl('/a?codeId=7&query=%7B%7D&%ZZ=1')).toBe('/a?codeId=7&query=%7B%7D&%ZZ=1');
  });

  it('redacts the Authorization header and password fields', async () => {
    const { app, lines } = loggedApp();
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

/** An app logging as the server does, into `lines`. */
function loggedApp(level = 'info') {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(String(chunk));
      done();
    },
  });
  const app = Fastify({ logger: { ...loggerOptions(level), stream }, logController: new RequestLog(stream) });
  registerErrorHandler(app);
  return { app, lines, parsed: () => lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
}

describe('one line per request', () => {
  it("writes the request line byte for byte as the server's pino logger writes the same fields", () => {
    const written: string[] = [];
    const logger = pino({ ...loggerOptions('info') }, { write: (line: string) => written.push(line) });
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'binary' }),
        fc.integer({ min: 100, max: 599 }),
        fc.double({ min: 0, max: 1e7, noNaN: true }),
        (reqId, method, url, status, elapsed) => {
          written.length = 0;
          const line = { method, url, status, ms: Math.round(elapsed * 10) / 10 };
          logger.info({ reqId, ...line }, 'request');
          const [byPino] = written;
          const time = Number(/"time":(\d+)/.exec(byPino ?? '')?.[1]);
          expect(requestLine(time, reqId, line)).toBe(byPino);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('writes one line with method, redacted URL, status, time and request id', async () => {
    const { app, parsed } = loggedApp();
    app.get('/x', async () => ({ ok: true }));
    await app.inject({ method: 'GET', url: '/x?Token=secret-1&page=2' });
    await app.close();
    const lines = parsed();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request',
      method: 'GET',
      url: '/x?Token=[REDACTED]&page=2',
      status: 200,
      reqId: expect.any(String),
      ms: expect.any(Number),
    });
    expect(JSON.stringify(lines)).not.toContain('secret-1');
  });

  it('does not log successful probes, but logs failing ones', async () => {
    const { app, parsed } = loggedApp();
    let ready = true;
    app.get('/healthz', async () => ({ status: 'ok' }));
    app.get('/readyz', async (_request, reply) => (ready ? { status: 'ready' } : reply.code(503).send({})));
    await app.inject({ method: 'GET', url: '/healthz' });
    await app.inject({ method: 'GET', url: '/healthz?from=balancer' });
    await app.inject({ method: 'GET', url: '/readyz' });
    ready = false;
    await app.inject({ method: 'GET', url: '/readyz' });
    await app.close();
    expect(parsed()).toEqual([expect.objectContaining({ level: 50, url: '/readyz', status: 503 })]);
  });

  it('logs client errors at info and an unexpected error once, at error, with its stack', async () => {
    const { app, parsed } = loggedApp();
    app.get('/boom', async () => {
      throw new Error('disk on fire');
    });
    await app.inject({ method: 'GET', url: '/nowhere' });
    expect((await app.inject({ method: 'GET', url: '/boom?password=p4ss' })).statusCode).toBe(500);
    await app.close();
    const [missing, failed, ...rest] = parsed();
    expect(rest).toEqual([]);
    expect(missing).toMatchObject({ level: 30, url: '/nowhere', status: 404, msg: 'request' });
    expect(failed).toMatchObject({ level: 50, url: '/boom?password=[REDACTED]', status: 500, msg: 'request failed' });
    expect(failed?.err).toMatchObject({ message: 'disk on fire', stack: expect.stringContaining('logging.unit.test') });
  });

  it('writes nothing per request when the level is above info, but still the failures', async () => {
    const { app, parsed } = loggedApp('warn');
    app.get('/x', async () => ({}));
    app.get('/boom', async () => {
      throw new Error('broken');
    });
    await app.inject({ method: 'GET', url: '/x' });
    await app.inject({ method: 'GET', url: '/boom' });
    await app.close();
    expect(parsed()).toEqual([expect.objectContaining({ level: 50, url: '/boom' })]);
  });
});

/** Runs a small program that logs through the server's destination, then ends as `ending` says. */
function runLogger(ending: string) {
  const program = `
    import pino from 'pino';
    import { logDestination } from './src/plugins/logging.ts';
    const log = pino({}, logDestination());
    for (let i = 0; i < 2000; i++) log.info({ i }, 'line');
    log.info('shutting down');
    ${ending}
  `;
  return spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', program], {
    cwd: new URL('../..', import.meta.url).pathname,
    encoding: 'utf8',
  });
}

describe('the asynchronous log destination', () => {
  it.each([
    ['process.exit (the graceful stop)', 'setImmediate(() => process.exit(0));', 0],
    ['an uncaught exception', "setImmediate(() => { throw new Error('crash'); });", 1],
    ['an unhandled rejection', "Promise.reject(new Error('crash'));", 1],
    ['the end of the event loop', '', 0],
    ["process.exit in the same turn (the turn's lines not yet handed over)", 'process.exit(0);', 0],
  ])('writes every line, in order, when the process ends by %s', (_name, ending, code) => {
    const result = runLogger(ending);
    expect(result.status, result.stderr).toBe(code);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2001);
    expect(lines.slice(0, 2000).map((line) => JSON.parse(line).i)).toEqual([...Array(2000).keys()]);
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ msg: 'shutting down' });
  });

  it('writes the lines while the process runs, not only when it ends: a SIGKILL 300 ms later loses none', () => {
    const result = runLogger("setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);");
    expect(result.signal).toBe('SIGKILL');
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2001);
    expect(JSON.parse(lines.at(-1) ?? '{}')).toMatchObject({ msg: 'shutting down' });
  });
});
