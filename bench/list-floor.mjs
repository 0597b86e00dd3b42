// The floor server `npm run bench -- projects` compares the project list with: the least a server
// answering that list over HTTP does. The server's own Fastify (no logger, no plugins) and
// node-postgres (resolved from apps/server), a pool of the server's size on the same database, and
// per request the statements the server sends for one list request (captured), run in order; the
// answer is the last statement's rows as JSON, or its one text value when the database wrote the
// page (PostgreSQL's path). No session, policy, query language, presenter, schema or log line.
// argv[2]: {"connection", "poolSize", "statements": [{"text", "params"}]}. Prints {"port"} once
// listening on 127.0.0.1.
import { createRequire } from 'node:module';

const require = createRequire(new URL('../apps/server/package.json', import.meta.url));
const Fastify = require('fastify');
const pg = require('pg');

const { connection, poolSize, statements } = JSON.parse(process.argv[2] ?? '{}');
const pool = new pg.Pool({ ...connection, max: poolSize, application_name: 'gantry-bench-floor' });
const app = Fastify({ logger: false });
app.get('/', async (_request, reply) => {
  let result;
  for (const { text, params } of statements) result = await pool.query(text, params);
  const [only] = result.rows;
  const page =
    result.rows.length === 1 && result.fields.length === 1 && typeof Object.values(only)[0] === 'string'
      ? Object.values(only)[0]
      : JSON.stringify(result.rows);
  return reply.type('application/json').send(page);
});
await app.listen({ port: 0, host: '127.0.0.1' });
console.log(JSON.stringify({ port: app.server.address().port }));
