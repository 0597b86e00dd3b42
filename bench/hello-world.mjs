// The bare Fastify hello-world that `npm run bench -- foundation` compares the server with: the
// server's own Fastify (resolved from apps/server), no logger, no plugins, in its own process.
// Prints {"port", "fastify"} once listening on 127.0.0.1.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const Fastify = require('fastify');
const app = Fastify({ logger: false });
app.get('/', async () => ({ hello: 'world' }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port, fastify: app.version }));
