// The floor `npm run bench -- foundation` puts beside `GET setting`: the server's own Fastify answering
// the same cached JSON with only what issue 33 keeps on every answer, each by the server's own code:
// its logging (one request line, to a file through its destination), its security headers and its
// per-request statement context (left out with `context: false`, to show what the first two alone
// leave). No session, policy, NUL check, CORS, no-store, compression or other route.
// argv[2]: {"body", "logFile", "context"}. Prints {"port"} once listening on 127.0.0.1.
import Fastify from 'fastify';
import { logDestination, loggerOptions, RequestLog, requestLogger } from '../apps/server/src/plugins/logging.js';
import { registerSecurityHeaders } from '../apps/server/src/plugins/security-headers.js';
import { registerTenantContext } from '../apps/server/src/plugins/tenant-context.js';

const { body, logFile, context }: { body: string; logFile: string; context: boolean } = JSON.parse(
  process.argv[2] ?? '{}',
);
const stream = logDestination(logFile);
const app = Fastify({
  logger: { ...loggerOptions('info'), stream },
  logController: new RequestLog(stream),
  childLoggerFactory: requestLogger,
});
if (context) registerTenantContext(app);
registerSecurityHeaders(app);
app.get('/', (_request, reply) => {
  reply.type('application/json; charset=utf-8').send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const address = app.server.address();
console.log(JSON.stringify({ port: typeof address === 'object' && address ? address.port : 0 }));
