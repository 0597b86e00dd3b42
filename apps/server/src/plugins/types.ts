import type { Language } from '@gantry/shared';
import type { UserRow } from '../modules/users/user.repository.js';
import type { Action } from '../policy/policy.js';

export interface RequestAuth {
  user: UserRow;
  expiresAt: Date;
  tokenHash: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** What the route does; the policy decides who may (required on every API route). */
    action?: Action;
  }
  interface FastifyRequest {
    language: Language;
    auth: RequestAuth | undefined;
  }
}
