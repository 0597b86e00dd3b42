import type { Language } from '@gantry/shared';
import type { UploadRule } from '../lib/upload-receiver.js';
import type { UserRow } from '../modules/users/user.repository.js';
import type { Action } from '../policy/policy.js';
import type { GatedProject, ProjectNeed, ProjectSource } from './project-gate.js';

export interface RequestAuth {
  user: UserRow;
  expiresAt: Date;
  tokenHash: string;
  /** Set when the caller sent an API token instead of a session's (issue 34 §3). */
  apiToken?: { id: string; name: string; scope: 'read' | 'all' } | undefined;
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
    /**
     * Only a signed-in session may call it, never an API token (the account's own security: its
     * tokens, second factor and password), so a leaked token cannot entrench itself.
     */
    apiTokenRefused?: boolean;
    /** The route receives files (multipart/form-data): its limits and errors (`lib/upload-receiver.ts`). */
    upload?: UploadRule;
    /**
     * What the route needs of the project it works in (`plugins/project-gate.ts`): required under a
     * project prefix; the gate reads, loads and checks the project and puts it on the request.
     */
    project?: ProjectNeed;
    /** Where the route names its project, instead of the project header or the query. */
    projectFrom?: ProjectSource;
    /** The route sets its own security headers (the front sites' files): plugins/security-headers.ts sets none. */
    securityHeaders?: false;
  }
  interface FastifyRequest {
    language: Language;
    auth: RequestAuth | undefined;
    /** The project the gate resolved (routes declaring `config.project`). */
    project: GatedProject | undefined;
  }
}
