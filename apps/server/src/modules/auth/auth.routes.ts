import {
  adminCheckResponse,
  type CurrentUser,
  captchaResponse,
  changePasswordBody,
  currentUser,
  loginAnswer,
  loginBody,
  messageResponse,
  registerBody,
  translate,
} from '@gantry/shared';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { actorOf, sessionOf } from '../../plugins/auth.js';
import type { UserRow } from '../users/user.repository.js';
import { type AuthService, toSessionUser } from './auth.service.js';

/** Registration of the administrator, sign-in, sign-out and the signed-in user's own account. */
/**
 * What `login/current/user` adds to the session user: the grant held, the features usable now, the
 * rights, evaluation install or not. The same object for a user row as long as none of it changed
 * (the answer made of it is then reused).
 */
export type ProfileExtras = (
  user: UserRow,
) => Promise<Pick<CurrentUser, 'grant' | 'features' | 'rights' | 'evaluation'>>;

export function authRoutes(auth: AuthService, loginRatePerMinute: number, profileExtras: ProfileExtras) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const throttled = { rateLimit: { max: loginRatePerMinute, timeWindow: '1 minute' } };

    app.post(
      '/admin/register',
      {
        config: { action: 'public', ...throttled },
        schema: { tags: ['auth'], body: registerBody, response: { 200: messageResponse } },
      },
      async (request) => {
        await auth.registerAdmin(request.body.password);
        return { message: translate('auth.adminRegistered', request.language) };
      },
    );

    app.get(
      '/admin/check',
      { config: { action: 'public' }, schema: { tags: ['auth'], response: { 200: adminCheckResponse } } },
      async () => {
        if (!(await auth.adminExists())) throw new AppError('adminMissing', { status: 404 });
        return { exists: true };
      },
    );

    app.get(
      '/login/captcha',
      {
        // Each call issues a code: no automatic HEAD twin with a rate-limit budget of its own.
        exposeHeadRoute: false,
        config: { action: 'public', ...throttled },
        schema: {
          tags: ['auth'],
          querystring: z.object({ username: z.string().max(64).default('') }),
          response: { 200: captchaResponse },
        },
      },
      async (request) => auth.captchaFor(request.query.username, request.ip),
    );

    app.post(
      '/login',
      {
        config: { action: 'public', ...throttled },
        schema: { tags: ['auth'], body: loginBody, response: { 200: loginAnswer } },
      },
      async (request) => auth.login(request.body, request.ip, request.language),
    );

    app.post(
      '/login/exit',
      { config: { action: 'session' }, schema: { tags: ['auth'], response: { 200: messageResponse } } },
      async (request) => {
        if (request.auth) await auth.logout(request.auth.tokenHash);
        return { message: translate('auth.loggedOut', request.language) };
      },
    );

    app.put(
      '/login/current/password',
      {
        // It checks a password: throttled like sign-in, so a stolen token cannot guess at hash speed.
        config: { action: 'session', apiTokenRefused: true, ...throttled },
        schema: { tags: ['auth'], body: changePasswordBody, response: { 200: messageResponse } },
      },
      async (request) => {
        const { user } = actorOf(request);
        await auth.changePassword(user, request.body.oldPassword, request.body.newPassword);
        return { message: translate('auth.passwordChanged', request.language) };
      },
    );

    // Asked on every page of the console: the answer is checked and serialised by its schema once per
    // user row, session expiry and extras (rows and cached sessions are never changed: a change is a
    // new object), then sent as it is (issue 33: the schema's encoding was most of the call's cost).
    const answers = new WeakMap<UserRow, { expiresAt: Date; extras: object; json: string }>();
    app.get(
      '/login/current/user',
      { config: { action: 'session' }, schema: { tags: ['auth'], response: { 200: currentUser } } },
      async (request, reply) => {
        const { user, expiresAt } = sessionOf(request);
        const extras = await profileExtras(user);
        let known = answers.get(user);
        if (known?.expiresAt !== expiresAt || known.extras !== extras) {
          const answer = currentUser.encode({ ...toSessionUser(user, expiresAt), ...extras });
          known = { expiresAt, extras, json: JSON.stringify(answer) };
          answers.set(user, known);
        }
        // Already JSON: a string with a JSON content type is sent as it is, past the typed serializer.
        const untyped: FastifyReply = reply;
        return untyped.type('application/json; charset=utf-8').send(known.json);
      },
    );
  };
}
