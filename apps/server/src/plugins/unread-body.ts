import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** The most of an unread request body read and thrown away so that its connection can go on. */
export const DRAIN_MAX_BYTES = 4 * 1024 * 1024;
/** The longest an answer waits for the rest of its request's body. */
export const DRAIN_MAX_MS = 5_000;
/** How long a connection closed after an early answer still reads (and drops) what the client sends. */
export const LINGER_MS = 5_000;

/** Whether nothing of the request's body is left to arrive or to be read (a GET, a body read whole). */
function consumed(raw: IncomingMessage): boolean {
  return raw.readableEnded || (raw.complete && raw.readableLength === 0);
}

/**
 * Reads the rest of the body and drops it: true once it has ended within the bounds. The reading
 * goes on past them (and after the answer) until the socket closes; whoever stops, stops the socket.
 */
function drain(raw: IncomingMessage): Promise<boolean> {
  // The body's readers (a multipart parser that stopped at an early error) let go of it.
  raw.unpipe();
  let read = 0;
  raw.on('data', (chunk: Buffer) => {
    read += chunk.length;
  });
  raw.resume();
  const declared = Number(raw.headers['content-length']);
  if (!raw.readableDidRead && declared > DRAIN_MAX_BYTES) return Promise.resolve(false);
  return new Promise((resolve) => {
    const finish = (ended: boolean) => {
      clearTimeout(timer);
      clearInterval(counter);
      raw.off('end', onEnd);
      raw.off('close', onClose);
      resolve(ended);
    };
    const onEnd = () => finish(true);
    const onClose = () => finish(raw.readableEnded);
    const timer = setTimeout(() => finish(false), DRAIN_MAX_MS);
    const counter = setInterval(() => read > DRAIN_MAX_BYTES && finish(false), 20);
    raw.once('end', onEnd);
    raw.once('close', onClose);
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
