import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The most of an unread request body read and thrown away so that its connection can go on. */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** The longest an answer waits for the rest of its request's body. */
export const DRAIN_MAX_MS = 5_000;
/** How long a connection closed after an early answer still reads (and drops) what the client sends. */
export const LINGER_MS = 5_000;

/**
 * Whether nothing of the request's body is left to arrive or to be read: a request without a body
 * (neither Content-Length nor Transfer-Encoding, RFC 9112 §6.3: a GET), or a body read whole. The
 * headers decide a GET answered synchronously, before Node has marked its message complete (which
 * would otherwise cost a drain, a promise and a timer per request: issue 33).
 */
function consumed(raw: IncomingMessage): boolean {
  const { headers } = raw;
  if (headers['transfer-encoding'] === undefined && !Number(headers['content-length'])) return true;
  return raw.readableEnded || (raw.complete && raw.readableLength === 0);
}

/**
 * Reads the rest of the body and drops it: true once it has ended within the bounds. The reading
 * goes on past them (and after the answer) until the socket closes; whoever stops, stops the socket.
 */
function drain(raw: IncomingMessage): Promise<boolean> {
  // The body's readers (a multipart parser that stopped at an early error) let go of it.
  raw.unpipe();
  const declared = Number(raw.headers['content-length']);
  // Nothing read yet and more declared than the bound: no use reading any of it before answering.
  const hopeless = !raw.readableDidRead && declared > DRAIN_MAX_BYTES;
  return new Promise((resolve) => {
    let read = 0;
    let settled = false;
    const finish = (ended: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(ended);
    };
    const timer = setTimeout(() => finish(false), DRAIN_MAX_MS);
    raw.on('data', (chunk: Buffer) => {
      read += chunk.length;
      if (read > DRAIN_MAX_BYTES) finish(false);
    });
    raw.once('end', () => finish(true));
    raw.once('close', () => finish(raw.readableEnded));
    raw.resume();
    if (hopeless) finish(false);
  });
}

/** After an answer that closes its connection: the client's last bytes read for a while, then the socket closed. */
function lingerThenClose(response: ServerResponse): void {
  const socket = response.socket;
  if (!socket) return;
  response.once('finish', () => {
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
  });
}

/**
 * An answer given before its request's body was read (a refused upload: its name, size, type, the
 * caller's rights; any error before or while the body is read) leaves the rest of that body on the
 * connection, ahead of the client's next request: unread, it stalls that connection until the
 * keep-alive timeout resets it. So every such answer first reads and drops the rest, within
 * DRAIN_MAX_BYTES and DRAIN_MAX_MS, and the connection carries the next request; past either bound
 * (or a declared length past it, nothing read yet) it answers at once with `Connection: close`,
 * keeps dropping what still comes for LINGER_MS (so the client reads the answer rather than a reset)
 * and closes the socket. See docs/DECISIONS.md, "Uploads".
 */
export function registerUnreadBody(app: FastifyInstance): void {
  // Callback style: every answer passes here, and most have nothing to wait for.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (consumed(raw)) return done(null, payload);
    drain(raw).then((ended) => {
      if (!ended) {
        reply.header('connection', 'close');
        lingerThenClose(reply.raw);
      }
      done(null, payload);
    }, done);
  });
}
