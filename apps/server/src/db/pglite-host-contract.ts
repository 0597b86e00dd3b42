/** What the server and the embedded database's process (`pglite-host.ts`) agree on. */
export interface HostOptions {
  dataDir: string;
  /** A private folder (mode 0700) holding the socket and the watchdog's marker. */
  socketDir: string;
  sharedBuffers: string;
  /** Longest run of one batch, by connection kind (the startup's application_name). */
  limitsMs: { request: number; background: number };
}

/** The file the watchdog leaves before stopping the process: `{limitMs, ranMs}`. */
export const WATCHDOG_MARKER = 'watchdog.json';
/** application_name of connections for long work (vacuum, backups): the longer limit applies. */
export const BACKGROUND_APPLICATION = 'gantry-background';
/** The socket is `<socketDir>/.s.PGSQL.<port>`, the name node-postgres looks for. */
export const SOCKET_PORT = 5432;

export type HostMessage = { type: 'ready' } | { type: 'pong' } | { type: 'failed'; message: string };
export type ServerMessage = { type: 'stop' } | { type: 'ping' };
