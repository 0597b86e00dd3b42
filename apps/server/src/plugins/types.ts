import type { Language } from '@gantry/shared';
import type { UploadRule } from '../lib/upload-receiver.js';
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
    /**
     * The route is a download link (or the websocket): its token may come as `?token=` (spec
     * README, contract 3). Every other route takes the token from the Authorization header only.
     */
    tokenInQuery?: boolean;
    /** The route receives files (multipart/form-data): its limits and errors (`lib/upload-receiver.ts`). */
    upload?: UploadRule;
  }
  interface FastifyRequest {
    language: Language;
    auth: RequestAuth | undefined;
  }
}
