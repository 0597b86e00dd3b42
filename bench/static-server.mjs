// The bare static server `npm run bench -- sites` compares a project's front site with: the server's
// own Fastify and @fastify/static (resolved from apps/server), no logger, no other plugin, in its own
// process, serving the folder given as the first argument. Prints {"port"} once listening on 127.0.0.1.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const Fastify = require('fastify');
const fastifyStatic = require('@fastify/static');
const app = Fastify({ logger: false });
await app.register(fastifyStatic, { root: process.argv[2] });
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
