import {
  loginResponse,
  messageResponse,
  recoveryCodesResponse,
  signInCodeBody,
  signInSetupBody,
  signInSetupConfirmBody,
  signInSetupConfirmed,
  totpConfirmBody,
  totpOffBody,
  totpSetupResponse,
  totpStatus,
  translate,
} from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { actorOf } from '../../plugins/auth.js';
import type { TwoFactorService } from './two-factor.service.js';

/**
 * Two-factor sign-in: the second step of a sign-in (public, with the pending sign-in's token), and
 * the personal centre's calls (a session's own, never an API token's: `apiTokenRefused`).
 */
export function twoFactorRoutes(twoFactor: TwoFactorService, loginRatePerMinute: number) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const throttled = { rateLimit: { max: loginRatePerMinute, timeWindow: '1 minute' } };
    const own = { action: 'session', apiTokenRefused: true } as const;

    app.post(
      '/login/totp',
      {
        config: { action: 'public', ...throttled },
        schema: { tags: ['auth'], body: signInCodeBody, response: { 200: loginResponse } },
      },
      async (request) =>
        twoFactor.signInWithCode(request.body.pendingToken, request.body.code, request.ip, request.language),
    );

    app.post(
      '/login/totp/setup',
      {
        config: { action: 'public', ...throttled },
        schema: { tags: ['auth'], body: signInSetupBody, response: { 200: totpSetupResponse } },
      },
      async (request) => twoFactor.startSetupSigningIn(request.body.pendingToken),
    );

    app.post(
      '/login/totp/setup/confirm',
      {
        config: { action: 'public', ...throttled },
        schema: {
          tags: ['auth'],
          body: signInSetupConfirmBody,
          response: { 200: signInSetupConfirmed },
        },
      },
      async (request) => twoFactor.confirmSigningIn(request.body.pendingToken, request.body.code, request.ip),
    );

    app.get(
      '/login/current/totp',
      { config: own, schema: { tags: ['auth'], response: { 200: totpStatus } } },
      async (request) => twoFactor.status(actorOf(request).user),
    );

    app.post(
      '/login/current/totp/setup',
      { config: { ...own, ...throttled }, schema: { tags: ['auth'], response: { 200: totpSetupResponse } } },
      async (request) => twoFactor.startSetup(actorOf(request).user),
    );

    app.post(
      '/login/current/totp/confirm',
      {
        config: { ...own, ...throttled },
        schema: { tags: ['auth'], body: totpConfirmBody, response: { 200: recoveryCodesResponse } },
      },
      async (request) => ({ recoveryCodes: await twoFactor.confirm(actorOf(request), request.body.code) }),
    );

    app.post(
      '/login/current/totp/off',
      {
        config: { ...own, ...throttled },
        schema: { tags: ['auth'], body: totpOffBody, response: { 200: messageResponse } },
      },
      async (request) => {
        await twoFactor.turnOff(actorOf(request), request.body);
        return { message: translate('totp.turnedOff', request.language) };
      },
    );
  };
}
