import type { Pool, PoolClient, PoolConfig } from 'pg';
import { type Admission, type Release, SYSTEM_TENANT, statementOwner } from './admission.js';
import { tenantTag } from './pglite-host-contract.js';

type ConnectCallback = (
  err: Error | undefined,
  client: PoolClient | undefined,
  done: (release?: unknown) => void,
) => void;

/**
 * node-postgres' pool behind the admission (`admission.ts`): a client is handed out only once its
 * tenant's statement is admitted, and its slot is freed when the client is given back. `pool.query`
 * (one statement) takes a client through the callback form; drizzle's transactions take one through
 * the promise form and hold it, during which the same request's other statements are not queued.
 * A subclass of the driver's own Pool (passed in: the driver is loaded lazily), as drizzle expects.
 * With `tagTenants` (the embedded engine) each statement's text starts with its tenant's tag
 * (`tenantTag`), by which the engine's process runs waiting statements in a fair order.
 */
export function admittedPool(
  PgPool: typeof Pool,
  admission: Admission,
  config: PoolConfig,
  options: { tagTenants: boolean } = { tagTenants: false },
): Pool {
  class AdmittedPool extends PgPool {
    override connect(): Promise<PoolClient>;
    override connect(callback: ConnectCallback): void;
    override connect(callback?: ConnectCallback): Promise<PoolClient> | undefined {
      const held = callback === undefined ? statementOwner.getStore() : undefined;
      const checkout = this.admitted(held !== undefined);
      if (!callback) return checkout;
      checkout.then(
        (client) => callback(undefined, client, (error) => client.release(error === undefined ? undefined : true)),
        (error: Error) => callback(error, undefined, () => undefined),
      );
      return undefined;
    }

    private async admitted(transaction: boolean): Promise<PoolClient> {
      const release: Release = await admission.enter();
      const owner = transaction ? statementOwner.getStore() : undefined;
      let client: PoolClient;
      try {
        client = await super.connect();
      } catch (error) {
        release();
        throw error;
      }
      if (owner) owner.transactions++;
      const untag = options.tagTenants ? tagged(client, statementOwner.getStore()?.tenant ?? SYSTEM_TENANT) : undefined;
      const giveBack = client.release.bind(client);
      let given = false;
      // The slot is freed when the client is given back, or when its connection breaks: drizzle
      // never gives back a client whose BEGIN failed (the engine restarting), which would keep the slot.
      const free = () => {
        if (given) return;
        given = true;
        client.off('error', free);
        client.off('end', free);
        if (owner) owner.transactions--;
        untag?.();
        release();
      };
      client.on('error', free);
      client.on('end', free);
      client.release = (error?: Error | boolean) => {
        free();
        giveBack(error);
      };
      return client;
    }
  }
  return new AdmittedPool(config);
}

/**
 * Until the returned function is called, every statement `client` sends starts with the tenant's
 * tag: a text or a config with a text (what node-postgres and drizzle send); anything else (a
 * submittable such as a COPY stream) goes as it is.
 */
function tagged(client: PoolClient, tenant: string): () => void {
  const tag = tenantTag(tenant);
  const send = client.query;
  client.query = (...args: unknown[]) => {
    const [first, ...rest] = args;
    const text =
      typeof first === 'string'
        ? tag + first
        : typeof first === 'object' &&
            first !== null &&
            !('submit' in first) &&
            'text' in first &&
            typeof first.text === 'string'
          ? { ...first, text: tag + first.text }
          : first;
    return Reflect.apply(send, client, [text, ...rest]);
  };
  return () => {
    client.query = send;
  };
}
