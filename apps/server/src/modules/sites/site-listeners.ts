import http, { type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import https from 'node:https';
import { createSecureContext, type SecureContext } from 'node:tls';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { AppError } from '../../lib/app-error.js';
import type { SiteProject, SiteRepository } from './site.repository.js';
import { ownOrigin } from './site-http.js';

interface Listener {
  port: number;
  server: Server | https.Server;
}

export interface SiteListenerOptions {
  /** The one TLS port of isUseHttps domains (SNI); undefined: no HTTPS listener. */
  httpsPort?: number | undefined;
  /** A stored certificate file of a project (`name` as uploaded). */
  readCertificate: (projectId: string, name: string) => Promise<Buffer | undefined>;
}

/**
 * A request that reached a project on its own origin (its port, or its domain): `/admin…` is its
 * back office, the sites' own files (`/_site/…`) stay where they are, anything else is its front
 * site. Answers the address inside this server (`/_p_{id}/…`, `/admin/_p_{id}/…`).
 */
export function siteAddress(projectId: string, url: string): string {
  const id = encodeURIComponent(projectId);
  if (url.startsWith('/_site/')) return url;
  if (url === '/admin' || url.startsWith('/admin/') || url.startsWith('/admin?'))
    return `/admin/_p_${id}${url.slice(6)}`;
  return `/_p_${id}${url.startsWith('/') ? url : `/${url}`}`;
}

/** The host name of a project's domain setting (`http://Plant.example.com:8080/x` → `plant.example.com`). */
export function domainHost(domain: string): string {
  return (
    domain
      .trim()
      .toLowerCase()
      .replace(/^https?:\/\//, '')
      .split(/[/:?#]/)[0] ?? ''
  );
}

/**
 * The projects' own listeners (issue 15 §2): a project with a port is served on that port of the
 * server's HOST, its front site at `/` and its back office at `/admin`, through the same routes
 * as `/_p_{id}/`. A save claims the new port before its transaction commits (a port another
 * program holds is the save's error, nothing changes); after every change the listeners follow the
 * stored row. Also the Host map: a project with `isUseDomain` is served by its domain on the main
 * port.
 */
export class SiteListeners {
  private readonly bound = new Map<string, Listener>();
  /** Ports claimed by saves not settled yet (their transaction may still roll back). */
  private readonly claimed = new Map<string, Listener>();
  private domains = new Map<string, string>();
  /** Domains served over TLS (isUseHttps with both certificate files) → project. */
  private secureDomains = new Map<string, string>();
  /** Each HTTPS project's TLS context, made on first use, dropped when the project changes. */
  private readonly contexts = new Map<string, Promise<SecureContext>>();
  private secure: https.Server | undefined;
  /** Work on one project's listeners, in order (see `enqueue`). */
  private readonly queues = new Map<string, Promise<void>>();
  private started = false;
  private closed = false;

  constructor(
    private readonly app: FastifyInstance,
    private readonly host: string,
    private readonly repo: SiteRepository,
    private readonly log: FastifyBaseLogger,
    private readonly options: SiteListenerOptions = { readCertificate: async () => undefined },
  ) {}

  /** The port of the HTTPS listener, once listening. */
  get httpsPort(): number | undefined {
    const address = this.secure?.address();
    return address && typeof address === 'object' ? address.port : undefined;
  }

  private context(projectId: string): Promise<SecureContext> {
    let context = this.contexts.get(projectId);
    if (!context) {
      context = (async () => {
        const project = await this.repo.project(projectId);
        if (!project?.certKey || !project.certPem) throw new Error('no certificate');
        const [key, cert] = await Promise.all([
          this.options.readCertificate(projectId, project.certKey),
          this.options.readCertificate(projectId, project.certPem),
        ]);
        if (!key || !cert) throw new Error('certificate files missing');
        return createSecureContext({ key, cert });
      })();
      context.catch(() => this.contexts.delete(projectId));
      this.contexts.set(projectId, context);
    }
    return context;
  }

  /** The TLS listener: the certificate of the domain the client names (SNI); unknown names get no handshake. */
  private async listenSecure(port: number): Promise<void> {
    const server = https.createServer(
      {
        SNICallback: (servername, callback) => {
          const projectId = this.secureDomains.get(servername.toLowerCase());
          if (!projectId) return callback(new Error(`no site for ${servername}`));
          this.context(projectId).then(
            (context) => callback(null, context),
            (error: Error) => callback(error),
          );
        },
      },
      (request, response) => {
        const projectId = this.secureDomains.get(domainHost(request.headers.host ?? ''));
        if (!projectId) {
          response.writeHead(421).end();
          return;
        }
        this.dispatch(projectId, request, response);
      },
    );
    server.keepAliveTimeout = 5_000;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen({ port, host: this.host }, () => {
        server.removeAllListeners('error');
        server.on('error', (error) => this.log.warn({ err: error, port }, 'project HTTPS listener failed'));
        resolve();
      });
    });
    this.secure = server;
  }

  private setSecure(projectId: string, project: SiteProject | undefined): void {
    this.contexts.delete(projectId);
    const next = new Map([...this.secureDomains].filter(([, id]) => id !== projectId));
    const host = project && secureHostOf(project);
    if (host) next.set(host, projectId);
    this.secureDomains = next;
  }

  /** The project a Host header names (its domain), if any. */
  projectOfHost(host: string | undefined): string | undefined {
    if (!host || this.domains.size === 0) return undefined;
    return this.domains.get(domainHost(host));
  }

  /** The port a project is listened on now (tests, the bench). */
  portOf(projectId: string): number | undefined {
    return this.bound.get(projectId)?.port;
  }

  get listening(): number {
    return this.bound.size;
  }

  private dispatch(projectId: string, request: IncomingMessage, response: ServerResponse): void {
    ownOrigin.add(request);
    request.url = siteAddress(projectId, request.url ?? '/');
    this.app.routing(request, response);
  }

  private listen(projectId: string, port: number): Promise<Server> {
    return new Promise((resolve, reject) => {
      const server = http.createServer((request, response) => this.dispatch(projectId, request, response));
      server.keepAliveTimeout = 5_000;
      server.once('error', (error: NodeJS.ErrnoException) => {
        server.close();
        if (error.code === 'EADDRINUSE') {
          reject(
            new AppError('sitePortInUse', {
              params: { port },
              fields: { port: { key: 'site.portInUse', params: { port } } },
            }),
          );
        } else {
          const reason = error.code ?? error.message;
          reject(
            new AppError('sitePortUnavailable', {
              params: { port, reason },
              fields: { port: { key: 'site.portUnavailable', params: { port, reason } } },
            }),
          );
        }
      });
      server.listen({ port, host: this.host }, () => {
        server.removeAllListeners('error');
        server.on('error', (error) => this.log.warn({ err: error, port, projectId }, 'project site listener failed'));
        resolve(server);
      });
    });
  }

  private async stop(listener: Listener | undefined): Promise<void> {
    if (!listener) return;
    await new Promise<void>((resolve) => {
      listener.server.close(() => resolve());
      listener.server.closeAllConnections();
    });
  }

  /**
   * Before a save of `projectId` commits: its new port must be ours to listen on. Binds it now (kept
   * as claimed until `changed`); a port held by another program → 409 with the port's message.
   */
  async claimPort(projectId: string, port: number | null): Promise<void> {
    if (this.closed || port === null || this.bound.get(projectId)?.port === port) return;
    for (const [id, listener] of this.bound) {
      if (id !== projectId && listener.port === port) {
        throw new AppError('portTaken', { fields: { port: 'project.portTaken' } });
      }
    }
    const previous = this.claimed.get(projectId);
    if (previous?.port === port) return;
    this.claimed.delete(projectId);
    await this.stop(previous);
    this.claimed.set(projectId, { port, server: await this.listen(projectId, port) });
  }

  /**
   * Runs `work` after the earlier work of `projectId` (changes of one project never interleave:
   * two binds of one port would see each other as "in use").
   */
  private enqueue(projectId: string, work: () => Promise<void>): Promise<void> {
    const run = (this.queues.get(projectId) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    this.queues.set(projectId, tail);
    void tail.then(() => {
      if (this.queues.get(projectId) === tail) this.queues.delete(projectId);
    });
    return run;
  }

  /**
   * After a change of `projectId`: listeners and the Host maps follow the stored row. `settle`: this
   * process's own save ended (committed or not) and its claimed port is settled; otherwise another
   * process announced the change (the invalidation bus), and a save of this process still in
   * progress is left to settle its own claim. `row`: the project as just read (undefined: not served).
   */
  changed(projectId: string, settle = true, row?: { project: SiteProject | undefined }): Promise<void> {
    return this.enqueue(projectId, async () => {
      const project = row ? row.project : await this.repo.project(projectId);
      this.setDomain(projectId, project?.isUseDomain && project.domainKey ? project.domainKey : undefined);
      this.setSecure(projectId, project);
      if (!settle && this.claimed.has(projectId)) return;
      const want = project?.port ?? null;
      const candidates = [this.bound.get(projectId), this.claimed.get(projectId)];
      this.claimed.delete(projectId);
      const keep = candidates.find((listener) => listener && listener.port === want);
      for (const listener of candidates) if (listener && listener !== keep) await this.stop(listener);
      if (keep) {
        this.bound.set(projectId, keep);
        return;
      }
      this.bound.delete(projectId);
      if (want !== null && !this.closed) await this.bind(projectId, want);
    });
  }

  /**
   * Every project followed again (the bus may have missed changes: its connection was lost, or a
   * platform restore replaced every row): one read of the served projects, then each project whose
   * listener, domain or certificate may differ.
   */
  async resync(): Promise<void> {
    if (!this.started || this.closed) return;
    const served = new Map((await this.repo.served()).map((project) => [project.id, project]));
    const ids = new Set([
      ...served.keys(),
      ...this.bound.keys(),
      ...this.domains.values(),
      ...this.secureDomains.values(),
    ]);
    const all = [...ids];
    for (let i = 0; i < all.length; i += 64) {
      await Promise.all(
        all
          .slice(i, i + 64)
          .map((id) =>
            this.changed(id, false, { project: served.get(id) }).catch((error: unknown) =>
              this.log.warn({ err: error, projectId: id }, 'project site listeners not updated'),
            ),
          ),
      );
    }
  }

  private async bind(projectId: string, port: number): Promise<void> {
    if (this.bound.has(projectId)) return;
    try {
      this.bound.set(projectId, { port, server: await this.listen(projectId, port) });
    } catch (error) {
      this.log.warn({ err: error, port, projectId }, 'could not listen on the port of a project');
    }
  }

  private setDomain(projectId: string, domainKey: string | undefined): void {
    const next = new Map([...this.domains].filter(([, id]) => id !== projectId));
    if (domainKey) next.set(domainHost(domainKey), projectId);
    this.domains = next;
  }

  /** At start: every project with a port listened on (a port that cannot be is logged, not fatal), the Host map filled. */
  async start(): Promise<void> {
    this.started = true;
    const projects = await this.repo.served();
    const domains = new Map<string, string>();
    for (const project of projects) {
      if (project.isUseDomain && project.domainKey) domains.set(domainHost(project.domainKey), project.id);
    }
    this.domains = domains;
    this.secureDomains = new Map(
      projects.flatMap((project) => {
        const host = secureHostOf(project);
        return host ? [[host, project.id] as const] : [];
      }),
    );
    if (this.options.httpsPort !== undefined && !this.closed) {
      await this.listenSecure(this.options.httpsPort).catch((error: unknown) =>
        this.log.warn(
          { err: error, port: this.options.httpsPort },
          'could not listen on the HTTPS port of project sites',
        ),
      );
    }
    const withPorts = projects.flatMap(({ id, port }) => (port === null ? [] : [{ id, port }]));
    // A few at a time: 1,000 projects start in well under a second.
    for (let i = 0; i < withPorts.length; i += 64) {
      await Promise.all(
        withPorts
          .slice(i, i + 64)
          .map((project) =>
            this.closed ? undefined : this.enqueue(project.id, () => this.bind(project.id, project.port)),
          ),
      );
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.bound.values(), ...this.claimed.values()];
    if (this.secure) all.push({ port: 0, server: this.secure });
    this.secure = undefined;
    this.bound.clear();
    this.claimed.clear();
    await Promise.all(all.map((listener) => this.stop(listener)));
  }
}

/** A project served over TLS: its domain in use, HTTPS on, both certificate files uploaded. */
/** The host a project serves over HTTPS (its domain, with a certificate), if it does. */
function secureHostOf(project: SiteProject): string | undefined {
  return project.isUseDomain && project.isUseHttps && project.domainKey && project.certKey && project.certPem
    ? domainHost(project.domainKey)
    : undefined;
}
