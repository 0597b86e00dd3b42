import { hostname } from 'node:os';
import { type FastifyBaseLogger, type FastifyReply, type FastifyRequest, LogController } from 'fastify';
import type { Bindings, ChildLoggerOptions } from 'pino';
import pino, { type DestinationStream } from 'pino';

/** Query parameters that may carry secrets and never reach the logs (names compared normalized). */
const SECRET_PARAMS = new Set(['token', 'password', 'code']);
/** A parameter whose normalized name contains one of these is redacted too (`access_token`, `newPassword`). */
const SECRET_PARTS = ['token', 'password', 'secret'];

/**
 * A parameter name as a reader would understand it: percent- and plus-decoded (up to three times,
 * for double encodings), compatibility-normalized (full-width letters), lower case, and with
 * everything but letters and digits removed (`token%00`, ` Token`, `to-ken`, `token[]` → `token`).
 */
function normalizedName(raw: string): string {
  let name = raw;
  for (let i = 0; i < 3 && /[%+]/.test(name); i++) {
    try {
      name = decodeURIComponent(name.replaceAll('+', ' '));
    } catch {
      break;
    }
  }
  return name
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
}

function isSecret(rawName: string): boolean {
  const name = normalizedName(rawName);
  return SECRET_PARAMS.has(name) || SECRET_PARTS.some((part) => name.includes(part));
}

/** The URL with the values of secret query parameters replaced, however their names are spelled. */
export function redactUrl(url: string): string {
  const start = url.indexOf('?');
  if (start < 0) return url;
  const pairs = url
    .slice(start + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals < 0 ? pair : pair.slice(0, equals);
      return isSecret(name) ? `${name}=[REDACTED]` : pair;
    });
  return `${url.slice(0, start)}?${pairs.join('&')}`;
}

/** pino options: tokens, passwords and cookies are redacted wherever they appear. */
export function loggerOptions(level: string) {
  return {
    level,
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'headers.authorization',
        '*.password',
        '*.oldPassword',
        '*.newPassword',
        '*.newPassword2',
        '*.token',
      ],
      censor: '[REDACTED]',
    },
    serializers: {
      req(request: FastifyRequest) {
        return { method: request.method, url: redactUrl(request.url), remoteAddress: request.ip };
      },
    },
  };
}

/** How long a log line may wait to be written with those that follow it. */
const LOG_GATHER_MS = 5;

/**
 * Where the server's log lines go: standard output (or `dest`, a file: the bench's floor server),
 * written asynchronously instead of one blocking write per line. The lines of `LOG_GATHER_MS` are
 * joined and handed over together, then queued and written by the next write call, so lines that
 * arrive while one is being written go out together too. pino writes what is still queued
 * synchronously when the process exits, whether by `process.exit` (the graceful stop), the end of
 * the event loop or an uncaught exception (`flushSync`, which takes the gathered lines first); a
 * line can be lost only to SIGKILL or a crash of Node itself.
 */
export function logDestination(dest: number | string = 1): DestinationStream {
  // Queued as bytes: as text, sonic-boom measured the whole queued text (up to 16 KiB) again for every
  // line added, 1.8-2.4 µs a line under load against 0.4 µs as bytes (issue 33).
  const stream = pino.destination({ dest, sync: false, minLength: 0, contentMode: 'buffer' });
  // (sonic-boom's types know only its text mode: its own write is called with bytes untyped.)
  const writeBytes = stream.write;
  // A write call per few milliseconds instead of one per line: under load a line per request cost a
  // write request to libuv's thread pool for every second line, a write per event-loop turn one per
  // ~4.5 lines, and each request about a microsecond more than one per 5 ms (issue 33).
  let gathered = '';
  const handOver = () => {
    if (gathered === '') return;
    const text = gathered;
    gathered = '';
    Reflect.apply(writeBytes, stream, [Buffer.from(text)]);
  };
  stream.write = (line: string): boolean => {
    if (gathered === '') setTimeout(handOver, LOG_GATHER_MS).unref();
    gathered += line;
    return true;
  };
  // Whatever flushes or ends the stream takes the gathered lines first.
  const { flush, flushSync, end } = stream;
  stream.flush = (callback) => {
    handOver();
    Reflect.apply(flush, stream, [callback]);
  };
  stream.flushSync = () => {
    handOver();
    Reflect.apply(flushSync, stream, []);
  };
  stream.end = () => {
    handOver();
    Reflect.apply(end, stream, []);
  };
  return stream;
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const write = (logger: FastifyBaseLogger, level: Level, args: unknown[]) =>
  (logger[level] as (...line: unknown[]) => void).apply(logger, args);

/**
 * A request's logger (`request.log`), made only when a line is written through it: pino's child
 * (its request id bound) cost ~1.5 µs on every request (issue 33), while a request's own line is
 * written by RequestLog and only failures and a few warnings go through `request.log`.
 */
class RequestLogger implements FastifyBaseLogger {
  private made: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: FastifyBaseLogger,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  private get logger(): FastifyBaseLogger {
    this.made ??= this.parent.child(this.bindings, this.options);
    return this.made;
  }

  get level(): string {
    return this.logger.level;
  }
  set level(level: string) {
    this.logger.level = level;
  }
  fatal(...args: unknown[]): void {
    write(this.logger, 'fatal', args);
  }
  error(...args: unknown[]): void {
    write(this.logger, 'error', args);
  }
  warn(...args: unknown[]): void {
    write(this.logger, 'warn', args);
  }
  info(...args: unknown[]): void {
    write(this.logger, 'info', args);
  }
  debug(...args: unknown[]): void {
    write(this.logger, 'debug', args);
  }
  trace(...args: unknown[]): void {
    write(this.logger, 'trace', args);
  }
  silent(...args: unknown[]): void {
    write(this.logger, 'silent', args);
  }
  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.logger.child(bindings, options);
  }
}

/** Fastify's `childLoggerFactory`: each request's logger, made when first written to. */
export const requestLogger = (logger: FastifyBaseLogger, bindings: Bindings, options: ChildLoggerOptions) =>
  new RequestLogger(logger, bindings, options);

/** Liveness and readiness probes: polled every few seconds by orchestrators, logged only when failing. */
const PROBES = new Set(['/healthz', '/readyz']);

/** The URL without its query (cheaper than `request.routeOptions`, which is built at each access). */
const pathOf = (url: string) => {
  const query = url.indexOf('?');
  return query < 0 ? url : url.slice(0, query);
};

/** Requests whose line was already written (an unexpected error, logged with its details). */
const logged = new WeakSet<FastifyRequest>();

const lineOf = (request: FastifyRequest, status: number, ms: number) => ({
  method: request.method,
  url: redactUrl(request.url),
  status,
  ms: Math.round(ms * 10) / 10,
});

/** The levels at which a logger writes info lines. */
const WRITES_INFO = new Set(['info', 'debug', 'trace']);

/** What pino writes after the time of every line of the server's logger (its default `base`). */
const BINDINGS = `,"pid":${process.pid},"hostname":${JSON.stringify(hostname())}`;

/**
 * A request's line, byte for byte as the server's pino logger writes `info({reqId, ...line}, 'request')`
 * (`logging.unit.test.ts` compares the two), made directly: pino's general path (its level check,
 * child bindings, key-by-key serialisation) cost about a microsecond of the 20 a cheap request costs
 * (issue 33). Its fields are known, so no redaction path applies (the URL is redacted by `redactUrl`).
 */
export function requestLine(time: number, reqId: string, line: ReturnType<typeof lineOf>): string {
  const ms = Number.isFinite(line.ms) ? line.ms : null;
  return `{"level":30,"time":${time}${BINDINGS},"reqId":${JSON.stringify(reqId)},"method":${JSON.stringify(line.method)},"url":${JSON.stringify(line.url)},"status":${line.status},"ms":${ms},"msg":"request"}\n`;
}

/**
 * One log line per request, instead of Fastify's two ('incoming request' and 'request completed'):
 * method, redacted URL, status and milliseconds, with the request id pino's child logger adds.
 * Client errors (4xx) are ordinary answers and log at info like the rest; server errors at error,
 * with the error's details when there is one (written by `logFailure` from the error handler).
 * Successful probes are not logged. Fastify's 'route not found' line is covered by the 404's own line.
 */
export class RequestLog extends LogController {
  /**
   * `lines`: where the server's logger writes (its destination), which the ordinary lines go to
   * (`requestLine`). Failures, which carry an error, go through the request's own (redacting) logger.
   */
  constructor(private readonly lines?: DestinationStream) {
    super();
  }

  override incomingRequest(): void {}

  override routeNotFound(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const status = reply.statusCode;
    if (logged.has(request)) return;
    if (error || status >= 500) {
      request.log.error(
        { ...lineOf(request, status, reply.elapsedTime), ...(error ? { err: error } : {}) },
        'request failed',
      );
    } else if (
      this.lines &&
      WRITES_INFO.has(request.server.log.level) &&
      (status >= 400 || !PROBES.has(pathOf(request.url)))
    ) {
      this.lines.write(requestLine(Date.now(), request.id, lineOf(request, status, reply.elapsedTime)));
    }
  }
}

/**
 * The line of a request that failed unexpectedly, with the error (stack included): written at once,
 * so that it is there even if the answer never completes, and the request's own line is then skipped.
 */
export function logFailure(request: FastifyRequest, reply: FastifyReply, status: number, error: unknown): void {
  logged.add(request);
  request.log.error({ ...lineOf(request, status, reply.elapsedTime), err: error }, 'request failed');
}
