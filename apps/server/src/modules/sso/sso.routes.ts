import {
  loginResponse,
  SSO_LIMITS,
  ssoCallbackQuery,
  ssoLoginOptions,
  ssoSettings,
  ssoSettingsInput,
  ssoStartQuery,
  ssoTicketBody,
} from '@gantry/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { PORTAL, SPM } from '../../app/prefixes.js';
import { actorOf } from '../../plugins/auth.js';
import type { SsoService } from './sso.service.js';

/** The cookie binding a sign-in under way to the browser that started it (HttpOnly, only for these calls). */
export const SSO_COOKIE = 'gantry_sso';
const COOKIE_PATH = `${SPM}/login/sso`;
const CALLBACK = `${SPM}/login/sso/callback`;

/** Where the provider sends the browser back: this server, as the browser reached it. */
export function redirectUriOf(request: FastifyRequest): string {
  return `${request.protocol}://${request.host}${CALLBACK}`;
}

function cookieOf(request: FastifyRequest): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name === SSO_COOKIE) return value.join('=') || undefined;
  }
  return undefined;
}

function setCookie(request: FastifyRequest, reply: FastifyReply, value: string, maxAge: number): void {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${SSO_COOKIE}=${value}; Path=${COOKIE_PATH}; Max-Age=${maxAge}; HttpOnly; SameSite=Lax${secure}`,
  );
}

/** The console's login page (a fixed place of this server: never a URL taken from the request). */
const loginPage = (query: string) => `${PORTAL}/#/login?${query}`;

/**
 * Single sign-on (issue 34 §1): the login page's options, start, the provider's callback, the ticket
 * trade, and the administrator's settings.
 */
export function ssoRoutes(sso: SsoService, loginRatePerMinute: number) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const throttled = { rateLimit: { max: loginRatePerMinute, timeWindow: '1 minute' } };

    app.get(
      '/login/sso',
      { config: { action: 'public' }, schema: { tags: ['auth'], response: { 200: ssoLoginOptions } } },
      async () => sso.loginOptions(),
    );

    app.get(
      '/login/sso/start',
      {
        exposeHeadRoute: false,
        config: { action: 'public', ...throttled },
        schema: {
          tags: ['auth'],
          description:
            'Starts a sign-in with the identity provider: 302 to its authorization URL, with an HttpOnly cookie ' +
            'binding the sign-in to this browser. `return`: a console route under /app to land on.',
          querystring: ssoStartQuery,
        },
      },
      async (request, reply) => {
        const started = await sso.start(request.query.return, redirectUriOf(request));
        setCookie(request, reply, started.browser, SSO_LIMITS.loginTtlSeconds);
        return reply.redirect(started.location, 302);
      },
    );

    app.get(
      '/login/sso/callback',
      {
        exposeHeadRoute: false,
        config: { action: 'public', ...throttled },
        schema: {
          tags: ['auth'],
          description:
            "The provider's answer: 302 to the console's login page with a one-time `sso` ticket, or `ssoError` (an error code).",
          querystring: ssoCallbackQuery,
        },
      },
      async (request, reply) => {
        const url = new URL(request.url, redirectUriOf(request));
        const outcome = await sso.callback(url, cookieOf(request), request.ip);
        if ('error' in outcome) {
          setCookie(request, reply, '', 0);
          return reply.redirect(loginPage(`ssoError=${encodeURIComponent(outcome.error.code)}`), 302);
        }
        setCookie(request, reply, outcome.browser, SSO_LIMITS.ticketTtlSeconds);
        return reply.redirect(loginPage(`sso=${encodeURIComponent(outcome.ticket)}`), 302);
      },
    );

    app.post(
      '/login/sso/ticket',
      {
        config: { action: 'public', ...throttled },
        schema: {
          tags: ['auth'],
          description:
            'Trades the one-time ticket (from the same browser) for a session, as a password sign-in answers.',
          body: ssoTicketBody,
          response: { 200: loginResponse.extend({ returnPath: z.string() }) },
        },
      },
      async (request, reply) => {
        const browser = cookieOf(request);
        setCookie(request, reply, '', 0);
        return sso.redeem(request.body.ticket, browser, request.ip);
      },
    );

    app.get(
      '/sso/settings',
      {
        config: { action: 'settings.read' },
        schema: {
          tags: ['settings'],
          description: 'Single sign-on settings; the client secret is never answered, only `clientSecretSet`.',
          response: { 200: ssoSettings },
        },
      },
      async (request) => sso.view(redirectUriOf(request)),
    );

    app.put(
      '/sso/settings',
      {
        config: { action: 'settings.write' },
        schema: {
          tags: ['settings'],
          description: 'Saves the single sign-on settings; without `clientSecret` the stored one is kept.',
          body: ssoSettingsInput,
          response: { 200: ssoSettings },
        },
      },
      async (request) => sso.replace(actorOf(request), request.body, redirectUriOf(request)),
    );
  };
}
