import { API_TOKEN_PREFIX, TaskState, WS_AUTH_FAILED } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LIST_QUERY_DESCRIPTION, listQuerystring } from '../../lib/list-response.js';
import { actorOf } from '../../plugins/auth.js';
import { PROJECT_HEADER, type ProjectGate } from '../../plugins/project-gate.js';
import type { AuthService } from '../auth/auth.service.js';
import type { ProgressHub } from './progress-hub.js';
import type { TaskService } from './task.service.js';

const tags = ['tasks'];
/** A socket that says nothing for this long is gone (the client's keep-alive is every 30 s). */
const SILENT_SOCKET_MS = 90_000;
/** The session is checked again on a client's message at most this often. */
const RECHECK_MS = 5_000;
/** A policy violation close code: the session is not (or no longer) valid. */
const CLOSE_UNAUTHORISED = 4001;

/** What the progress socket reads of its query (anything else there is ignored). */
const socketQuery = z.object({ token: z.string().optional(), [PROJECT_HEADER]: z.string().optional() });

export const taskView = z.object({
  id: z.string(),
  projectId: z.string().nullable(),
  type: z.string(),
  status: z.enum(TaskState),
  progress: z.number(),
  requestId: z.string(),
  message: z.string().nullable(),
  startTime: z.string(),
  endTime: z.string().nullable(),
});

/** The task manager and the progress websocket, under `rest/spm`. */
export function taskRoutes(deps: {
  tasks: TaskService;
  hub: ProgressHub;
  auth: AuthService;
  /** The project gate: the socket's project checked as every project call's is. */
  gate: Pick<ProjectGate, 'resolve'>;
}) {
  return async function routes(app: FastifyInstance): Promise<void> {
    const typed = app.withTypeProvider<ZodTypeProvider>();

    typed.get(
      '/proxy/core/taskmanager',
      {
        config: { action: 'task.read', project: 'maybe' },
        schema: {
          tags,
          description: `${LIST_QUERY_DESCRIPTION} Fields: id, type, status, progress, startTime, endTime, requestId, projectId. Default sort startTime desc, limit 15. With \`x-request-project\`: that project's tasks.`,
          querystring: listQuerystring,
          response: { 200: z.array(taskView) },
        },
      },
      async (request) => deps.tasks.list(actorOf(request).user, request.project, request.query.query, request.language),
    );

    typed.get(
      '/proxy/core/taskmanager/:id',
      {
        config: { action: 'task.read', project: 'none' },
        schema: {
          tags,
          params: z.object({ id: z.string().min(1).max(64) }),
          response: { 200: taskView.extend({ log: z.string() }) },
        },
      },
      async (request) => deps.tasks.get(actorOf(request).user, request.params.id, request.language),
    );

    typed.patch(
      '/proxy/core/taskmanager/:id',
      {
        config: { action: 'task.write', project: 'none' },
        schema: {
          tags,
          description: 'Pauses the task: a waiting one at once, a running one at its next safe point.',
          params: z.object({ id: z.string().min(1).max(64) }),
          body: z.object({ status: z.literal(TaskState.Paused), id: z.string().max(64).optional() }),
          response: { 200: taskView },
        },
      },
      async (request) => deps.tasks.pause(actorOf(request).user, request.params.id, request.language),
    );

    // The progress channel. Public as a route: the token comes in the query and a bad one is
    // answered on the socket itself (WS_AUTH_FAILED, then close), as the console expects.
    app.get(
      '/proxy/ws/:name',
      { websocket: true, config: { action: 'public' }, schema: { hide: true } },
      (socket, request) => {
        const query = socketQuery.safeParse(request.query).data;
        // A session's token only: an API token is never taken from a URL (plugins/auth.ts tokenOf).
        const token = query?.token && !query.token.startsWith(API_TOKEN_PREFIX) ? query.token : '';
        const projectId = query?.[PROJECT_HEADER];
        let unsubscribe: (() => void) | undefined;
        let silence: NodeJS.Timeout | undefined;
        const refuse = () => {
          if (socket.readyState === socket.OPEN) socket.send(WS_AUTH_FAILED);
          socket.close(CLOSE_UNAUTHORISED, 'unauthorised');
        };
        const stillSignedIn = async () => (token ? await deps.auth.authenticate(token) : undefined);
        const heard = () => {
          clearTimeout(silence);
          silence = setTimeout(() => socket.terminate(), SILENT_SOCKET_MS);
          silence.unref();
        };
        socket.on('close', () => {
          unsubscribe?.();
          clearTimeout(silence);
        });
        heard();
        void (async () => {
          const session = await stillSignedIn();
          if (!session) return refuse();
          if (projectId !== undefined) {
            // Refused as a call would be (404 there): the socket is closed.
            const reached = await deps.gate.resolve(session.user, projectId, 'read').then(
              () => true,
              () => false,
            );
            if (!reached) return refuse();
          }
          if (socket.readyState !== socket.OPEN) return;
          unsubscribe = deps.hub.subscribe({
            user: session.user,
            language: request.language,
            projectId,
            send: (text) => socket.send(text),
          });
          // The client's query on open and its keep-alives: each proves the session is still valid.
          let checkedAt = Date.now();
          socket.on('message', () => {
            heard();
            // A client that floods the socket costs one session check per RECHECK_MS, not one per message.
            if (Date.now() - checkedAt < RECHECK_MS) return;
            checkedAt = Date.now();
            void stillSignedIn().then(
              (current) => {
                if (!current) refuse();
              },
              () => undefined,
            );
          });
        })().catch(() => refuse());
      },
    );
  };
}
