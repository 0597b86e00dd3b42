import { WS_AUTH_FAILED, WS_KEEPALIVE_MS } from '@gantry/shared';

/** A task as the progress channel sends it (the server's TaskView). */
export interface TaskProgress {
  id: string;
  projectId: string | null;
  type: string;
  status: 'ongoing' | 'pause' | 'success' | 'failed';
  progress: number;
  requestId: string;
  message: string | null;
  startTime: string;
  endTime: string | null;
}

interface ProgressMessage {
  name: string;
  data: Record<string, Record<string, TaskProgress>>;
}

/** backups-data-designer.md §4: 3 s; 10 s after 10 attempts; 60 s after 20. */
export function reconnectDelay(attempt: number): number {
  if (attempt >= 20) return 60_000;
  if (attempt >= 10) return 10_000;
  return 3_000;
}

type Listener = (tasks: TaskProgress[]) => void;

/**
 * The one websocket client of the console: connects to the progress channel with the session's
 * token, sends its query on open and a keep-alive every 30 s, reconnects with the spec's delays,
 * and gives up for good after 'failed to get current user ID' (the session is gone).
 */
export class ProgressSocket {
  private socket: WebSocket | undefined;
  private attempts = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private keepAlive: ReturnType<typeof setInterval> | undefined;
  private stopped = false;
  private readonly listeners = new Set<Listener>();
  private readonly statusListeners = new Set<(open: boolean) => void>();

  constructor(
    private readonly token: string,
    private readonly url: (token: string) => string = defaultUrl,
    private readonly create: (url: string) => WebSocket = (url) => new WebSocket(url),
  ) {}

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Told each time the socket opens (true) or is closed (false): a watcher may poll meanwhile. */
  onStatus(listener: (open: boolean) => void): () => void {
    this.statusListeners.add(listener);
    return () => this.statusListeners.delete(listener);
  }

  private status(open: boolean): void {
    for (const listener of this.statusListeners) listener(open);
  }

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.keepAlive);
    const wasOpen = this.socket !== undefined;
    this.socket?.close();
    this.socket = undefined;
    if (wasOpen) this.status(false);
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = this.create(this.url(this.token));
    this.socket = socket;
    socket.onopen = () => {
      this.attempts = 0;
      socket.send(JSON.stringify({ name: 'historycomputed' }));
      clearInterval(this.keepAlive);
      this.keepAlive = setInterval(() => socket.send('ping'), WS_KEEPALIVE_MS);
      this.status(true);
    };
    socket.onmessage = (event: MessageEvent) => {
      const text = typeof event.data === 'string' ? event.data : '';
      if (text === WS_AUTH_FAILED) {
        this.stop();
        return;
      }
      const tasks = parse(text);
      if (tasks.length > 0) for (const listener of this.listeners) listener(tasks);
    };
    socket.onclose = () => {
      clearInterval(this.keepAlive);
      if (this.stopped || this.socket !== socket) return;
      this.status(false);
      this.timer = setTimeout(() => this.connect(), reconnectDelay(this.attempts++));
    };
  }
}

function parse(text: string): TaskProgress[] {
  try {
    const message = JSON.parse(text) as ProgressMessage;
    if (message.name !== 'historycomputed' || typeof message.data !== 'object' || message.data === null) return [];
    return Object.values(message.data).flatMap((byRequest) => Object.values(byRequest));
  } catch {
    return [];
  }
}

function defaultUrl(token: string): string {
  const scheme = window.location.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${scheme}//${window.location.host}/portal/rest/spm/proxy/ws/historycomputed?token=${encodeURIComponent(token)}`;
}
