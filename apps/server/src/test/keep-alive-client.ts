import http from 'node:http';
import type { Socket } from 'node:net';

/** One answer on a keep-alive connection: its status, headers, body, and which socket carried it. */
export interface KeptAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The number of the connection (1 for the client's first, 2 for its second…). */
  socket: number;
}

export interface KeptRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** The body; several pieces are sent one by one (chunked, unless a Content-Length is given). */
  body?: Buffer | Buffer[];
}

/**
 * An HTTP client of one keep-alive connection at a time (node:http Agent, keepAlive, maxSockets 1),
 * as a browser or `fetch` uses a connection: the next request goes on the same socket once the
 * previous answer has been read. Every call must be answered within `timeoutMs`.
 */
export class KeepAliveClient {
  private readonly agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  private readonly sockets = new WeakMap<Socket, number>();
  private opened = 0;

  constructor(
    private readonly port: number,
    private readonly timeoutMs = 5_000,
  ) {}

  send(request: KeptRequest): Promise<KeptAnswer> {
    return new Promise((resolve, reject) => {
      const started = Date.now();
      let socket = 0;
      const call = http.request(
        {
          host: '127.0.0.1',
          port: this.port,
          agent: this.agent,
          method: request.method,
          path: request.path,
          headers: request.headers,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => {
            clearTimeout(timer);
            resolve({
              status: response.statusCode ?? 0,
              headers: response.headers,
              body: Buffer.concat(chunks).toString('utf8'),
              socket,
            });
          });
          response.on('error', reject);
        },
      );
      const timer = setTimeout(() => {
        call.destroy();
        reject(new Error(`${request.method} ${request.path}: no answer within ${Date.now() - started} ms`));
      }, this.timeoutMs);
      // An error once answered (the server closed after its answer) changes nothing: the promise is settled.
      call.on('socket', (opened) => {
        socket = this.numberOf(opened);
      });
      call.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
      const pieces = Array.isArray(request.body) ? request.body : [request.body];
      for (const piece of pieces.slice(0, -1)) if (piece) call.write(piece);
      call.end(pieces.at(-1));
    });
  }

  close(): void {
    this.agent.destroy();
  }

  private numberOf(socket: Socket): number {
    let number = this.sockets.get(socket);
    if (number === undefined) {
      number = ++this.opened;
      this.sockets.set(socket, number);
    }
    return number;
  }
}
