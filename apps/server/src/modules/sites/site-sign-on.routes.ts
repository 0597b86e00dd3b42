import {
  captchaResponse,
  dateOfDay,
  grantEndDay,
  localDate,
  remainingDays,
  siteCaptchaQuery,
  siteDoneView,
  siteLoginBody,
  siteMeView,
  siteParams,
  siteSessionView,
  siteSsoBody,
  siteSsoCodeView,
  siteStateView,
} from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';
import { backOfficeOf } from './back-office-gate.js';
import type { SiteProject } from './site.repository.js';
import type { SiteRouteDeps } from './site-http.js';

/** What a back-office caller sees of its project: the name and the grant (with its end and remaining days). */
function projectSummary(project: SiteProject, now: Date) {
  const grant = project.grant;
  return {
    id: project.id,
    name: project.name,
    grant: grant
      ? {
          ...grant,
          endTime: dateOfDay(grantEndDay(grant)),
          remainingTime: remainingDays(grant, localDate(now)),
        }
      : null,
  };
}

/** A session as answered. */
const sessionAnswer = (opened: { token: string; expiresAt: Date }) => ({
  token: opened.token,
  expiresAt: opened.expiresAt.toISOString(),
});

/**
 * Signing in to a project's back office (issue 15) `/admin/_p_{id}/api/…`: the sign-in page's state,
 * the verification code, sign-in with the console's rules (project users, or the project
 * administrator's console account), single sign-on with a console code, sign-out and who is signed
 * in. Registered in the back office's calls' scope (site.routes.ts).
 */
export function backOfficeSignOnRoutes(deps: SiteRouteDeps) {
  const { sites, settings } = deps;
  const throttled = { rateLimit: { max: deps.loginRatePerMinute ?? 30, timeWindow: '1 minute' } };
  return async (api: FastifyInstance) => {
    const typed = api.withTypeProvider<ZodTypeProvider>();

    typed.get(
      '/admin/_p_:id/api/state',
      { schema: { hide: true, params: siteParams, response: { 200: siteStateView } } },
      async (request) => {
        const project = await sites.usable(request.params.id);
        return { project: { id: project.id, name: project.name }, captcha: (await settings.get()).captcha };
      },
    );

    typed.get(
      '/admin/_p_:id/api/captcha',
      {
        exposeHeadRoute: false,
        config: throttled,
        schema: { hide: true, params: siteParams, querystring: siteCaptchaQuery, response: { 200: captchaResponse } },
      },
      async (request) =>
        sites.captchaFor(request.params.id, request.query.username, request.query.owner === 'true', request.ip),
    );

    typed.post(
      '/admin/_p_:id/api/login',
      {
        config: throttled,
        schema: { hide: true, params: siteParams, body: siteLoginBody, response: { 200: siteSessionView } },
      },
      async (request) =>
        sessionAnswer(await sites.login(request.params.id, request.body, request.ip, request.language)),
    );

    typed.post(
      '/admin/_p_:id/api/sso',
      {
        config: throttled,
        schema: { hide: true, params: siteParams, body: siteSsoBody, response: { 200: siteSessionView } },
      },
      async (request) => sessionAnswer(await sites.exchangeSsoCode(request.params.id, request.body.code, request.ip)),
    );

    typed.post(
      '/admin/_p_:id/api/logout',
      { schema: { hide: true, params: siteParams, response: { 200: siteDoneView } } },
      async (request) => {
        const { caller } = backOfficeOf(request);
        await sites.logout(caller);
        return { ok: true as const };
      },
    );

    typed.get(
      '/admin/_p_:id/api/me',
      { schema: { hide: true, params: siteParams, response: { 200: siteMeView } } },
      async (request) => {
        const { caller, project } = backOfficeOf(request);
        return {
          kind: caller.kind,
          username: caller.username,
          name: caller.name,
          roles: caller.roles,
          manager: caller.kind === 'owner',
          project: projectSummary(project, sites.now()),
        };
      },
    );
  };
}

/** The console side of single sign-on: the project's owner asks for a one-time code (`project/{id}/sso`). */
export function consoleSignOnRoutes(deps: SiteRouteDeps) {
  const { sites } = deps;
  return async (app: FastifyInstance) => {
    app.withTypeProvider<ZodTypeProvider>().post(
      '/portal/rest/spm/project/:id/sso',
      {
        config: { action: 'project.write' },
        schema: { hide: true, params: siteParams, response: { 200: siteSsoCodeView } },
      },
      async (request) => sites.issueSsoCode(actorOf(request).user, request.params.id),
    );
  };
}
