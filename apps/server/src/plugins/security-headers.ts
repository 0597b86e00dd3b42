import type { FastifyInstance, onRequestHookHandler } from 'fastify';

/**
 * The Content-Security-Policy of every answer (console pages, API answers, files). The console is
 * built by Vite into same-origin module scripts: no inline script, no eval. antd 6 styles itself
 * with CSS-in-JS (runtime <style> elements) and index.html has one small inline <style>, so
 * style-src needs 'unsafe-inline' (docs/DECISIONS.md, "Issue 10: security headers"). Images may be
 * data: (the verification code), blob: (previews) or an absolute http(s) address, which settings
 * accept for the logo and the login background.
 */
export const CONTENT_SECURITY_POLICY = {
  'default-src': ["'self'"],
  'script-src': ["'self'"],
  'script-src-attr': ["'none'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
  'font-src': ["'self'", 'data:'],
  'connect-src': ["'self'"],
  'object-src': ["'none'"],
  'base-uri': ["'self'"],
  'form-action': ["'self'"],
  'frame-ancestors': ["'none'"],
} as const;

/** The CSP above as @fastify/helmet writes it. */
export const CONTENT_SECURITY_POLICY_HEADER = Object.entries(CONTENT_SECURITY_POLICY)
  .map(([name, values]) => [name, ...values].join(' '))
  .join(';');

/**
 * What @fastify/helmet sets on every answer besides the CSP and Cross-Origin-Resource-Policy, for
 * the answers given without it (the front site's files, an address Fastify cannot decode);
 * site.routes.test.ts and security-headers.test.ts compare them with helmet's.
 */
export const SECURITY_HEADERS = {
  'cross-origin-opener-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
} as const;

/** Every header @fastify/helmet sets on an API answer. */
export const API_SECURITY_HEADERS = {
  ...SECURITY_HEADERS,
  'content-security-policy': CONTENT_SECURITY_POLICY_HEADER,
  'cross-origin-resource-policy': 'same-origin',
} as const;

/**
 * Browser security headers on every answer: the CSP above, X-Frame-Options DENY (with
 * frame-ancestors 'none': no site may frame the console), X-Content-Type-Options nosniff,
 * Referrer-Policy no-referrer (URLs never leave in a Referer), Cross-Origin-Opener-Policy and
 * -Resource-Policy same-origin. No HSTS: the server speaks plain HTTP and cannot know whether a
 * proxy in front serves it over TLS; the proxy that terminates TLS sets it. No
 * upgrade-insecure-requests, which would break an install served over plain HTTP on a LAN address.
 * The headers are the ones @fastify/helmet wrote, computed once: helmet rebuilt its middleware and
 * parsed the CSP on every request (issue 33). They go with the answer's own headers (not on the raw
 * answer: Node then writes them all in one pass), so every answer given through Fastify carries them,
 * errors and 404s included. A route with `config.securityHeaders: false` (the front sites' files)
 * sets its own: its own hook takes these off again, so that no other request pays for the check.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  const names = Object.keys(API_SECURITY_HEADERS);
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(API_SECURITY_HEADERS);
    done();
  });
  const withoutHeaders: onRequestHookHandler = (_request, reply, done) => {
    for (const name of names) reply.removeHeader(name);
    done();
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.securityHeaders === false) route.onRequest = [route.onRequest ?? [], withoutHeaders].flat();
  });
}
