/** What the server and the embedded database's process (`pglite-host.ts`) agree on. */
export interface HostOptions {
  dataDir: string;
  /** A private folder (mode 0700) holding the socket and the watchdog's marker. */
  socketDir: string;
  sharedBuffers: string;
  /** Longest run of one batch, by connection kind (the startup's application_name). */
  limitsMs: { request: number; background: number };
  /**
   * The longest the engine keeps a heavy statement waiting for a light tenant's next statement
   * (`pglite-host.ts`); 0 never waits. Default `LIGHT_TENANT_WAIT_MS`.
   */
  lightTenantWaitMs?: number;
}

/** A light tenant's next statement, the rest of its request or its client's next one, mostly arrives within this. */
export const LIGHT_TENANT_WAIT_MS = 10;

/** The file the watchdog leaves before stopping the process: `{limitMs, ranMs}`. */
export const WATCHDOG_MARKER = 'watchdog.json';
/** application_name of connections for long work (vacuum, backups): the longer limit applies. */
export const BACKGROUND_APPLICATION = 'gantry-background';
/** The socket is `<socketDir>/.s.PGSQL.<port>`, the name node-postgres looks for. */
export const SOCKET_PORT = 5432;

export type HostMessage = { type: 'ready' } | { type: 'pong' } | { type: 'failed'; message: string };
/** `start` comes first, once: the process may be forked before the server has read its config. */
export type ServerMessage = { type: 'start'; options: HostOptions } | { type: 'stop' } | { type: 'ping' };

/**
 * A request statement's tenant, told to the embedded engine's process so that it runs waiting
 * statements in a fair order (`pglite-host.ts`): a leading comment, the tenant in hex (any id is
 * safe inside it), written by the request pool (`admitted-pool.ts`). `TAG_OPEN` is how a tagged
 * statement's text starts.
 */
export const TAG_OPEN = '/*tenant:';
const TAG_CLOSE = '*/ ';
export const tenantTag = (tenant: string): string => `${TAG_OPEN}${Buffer.from(tenant).toString('hex')}${TAG_CLOSE}`;
/** The tag at the start of a statement's text, or undefined. */
export function taggedTenant(text: string): string | undefined {
  if (!text.startsWith(TAG_OPEN)) return undefined;
  const end = text.indexOf(TAG_CLOSE, TAG_OPEN.length);
  return end < 0 ? undefined : text.slice(TAG_OPEN.length, end);
}
