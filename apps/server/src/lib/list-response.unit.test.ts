/**
 * `registerListRoutes` with a page the database built as JSON text: sent as it is, with the total's
 * headers, and (outside production, so in every test) refused when it does not match the answer's
 * schema, as zod's response check refuses an item.
 */
import { sql } from 'drizzle-orm';
import Fastify from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { ResourceDef } from './list-query/list-query.js';
import { registerListRoutes } from './list-response.js';

const item = z.object({ id: z.string(), name: z.string(), owner: z.object({ id: z.string() }).nullable() });
const RESOURCE: ResourceDef<'id'> = {
  name: 'thing',
  id: 'id',
  fields: { id: { sql: sql`id`, type: 'string', sort: true } },
  defaultSort: { id: 1 },
  defaultLimit: 10,
  maxLimit: 10,
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function answer(json: string) {
  const app = Fastify();
  close = () => app.close();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerListRoutes(app, {
    path: '/thing',
    action: 'project.read',
    tags: [],
    resource: RESOURCE,
    item,
    totals: '',
    list: async () => ({ json, total: { count: 7, estimated: true } }),
    count: async () => ({ count: 7, estimated: false }),
  });
  return app.inject({ method: 'GET', url: '/thing' });
}

describe('a list page built as JSON text', () => {
  it('is sent byte for byte, as JSON, with the total in the headers', async () => {
    const json = '[{"id" : "a", "name": "x\\u00e9", "owner": null}]';
    const response = await answer(json);
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(json);
    expect(response.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(response.headers.count).toBe('7');
    expect(response.headers['count-estimated']).toBe('true');
  });

  it('is refused when an item carries a key the schema does not list, at any depth', async () => {
    for (const json of ['[{"id":"a","secret":1}]', '[{"id":"a","owner":{"id":"o","password":"p"}}]']) {
      const response = await answer(json);
      expect(response.statusCode).toBe(500);
      expect(response.body).not.toContain('"secret":1');
    }
  });

  it('is refused when a value has the wrong type', async () => {
    expect((await answer('[{"id":1}]')).statusCode).toBe(500);
    expect((await answer('{"id":"a"}')).statusCode).toBe(500);
  });
});
