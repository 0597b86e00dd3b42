import {
  ERRORS,
  type ErrorBody,
  type ErrorCode,
  isMessageKey,
  isRecord,
  type Language,
  pickLanguage,
  translate,
} from '@gantry/shared';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../db/database.js';
import { mapDatabaseError } from '../db/database-errors.js';
import { AppError } from '../lib/app-error.js';
import { mapQueryError } from '../lib/list-query/list-query.js';
import { logFailure } from './logging.js';
import { API_SECURITY_HEADERS } from './security-headers.js';

function translatedParams(params: Record<string, string | number>, language: Language) {
  return Object.fromEntries(
    Object.entries(params).map(([name, value]) => [
      name,
      // A parameter that is itself a message (a reason) is translated with the same parameters.
      typeof value === 'string' && isMessageKey(value) ? translate(value, language, params) : value,
    ]),
  );
}

function bodyFor(error: AppError, language: Language): ErrorBody {
  const body: ErrorBody = {
    message: translate(
      error.options.message ?? ERRORS[error.code].message,
      language,
      translatedParams(error.options.params ?? {}, language),
    ),
    code: error.code,
  };
  // Licence problems also say why in `license`: the console shows 'please update the license:' + it.
  if ('licence' in ERRORS[error.code]) body.license = body.message;
  if (error.options.fields) {
    body.fields = Object.fromEntries(
      Object.entries(error.options.fields).map(([field, message]) => [
        field,
        typeof message === 'string'
          ? translate(message, language, error.options.params)
          : translate(message.key, language, translatedParams(message.params, language)),
      ]),
    );
    const first = Object.values(body.fields)[0];
    if (error.options.messageFromFields && first) body.message = first;
  }
  return body;
}

/**
 * Zod issues → `fields` keyed by dotted path; a rule's own message key is translated. A key a strict
 * object does not know is named as its own field (its issue's path is the object's).
 */
function validationBody(
  issues: Array<{ instancePath: string; message?: string | undefined; keyword?: string; params?: unknown }>,
  language: Language,
): ErrorBody {
  const fields: Record<string, string> = {};
  for (const issue of issues) {
    const at = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    const unknown =
      issue.keyword === 'unrecognized_keys' ? (isRecord(issue.params) ? issue.params.keys : undefined) : undefined;
    if (Array.isArray(unknown)) {
      for (const key of unknown) {
        const field = at ? `${at}.${String(key)}` : String(key);
        fields[field] ??= translate('error.unknownField', language, { field });
      }
      continue;
    }
    const field = at || '_';
    if (fields[field]) continue;
    fields[field] =
      issue.message && isMessageKey(issue.message)
        ? translate(issue.message, language)
        : translate('error.invalidField', language, { field });
  }
  const first = Object.values(fields)[0];
  return { message: first ?? translate('error.validation', language), code: 'validation', fields };
}

/** The one error handler: an error → its answer. */
export type ErrorAnswer = (
  thrown: FastifyError | AppError,
  request: FastifyRequest,
  reply: FastifyReply,
) => FastifyReply;

/**
 * One error handler (fastify/demo style): known errors become `{message, code, fields?}` in the
 * caller's language; anything unexpected is logged and answered with a generic 500.
 */
export function errorAnswer(
  database?: Pick<DatabaseHandle, 'limits' | 'lastStop'>,
  /** Told of each answer that a statement was stopped at its limit (`queryTimeout`): the metrics. */
  onStatementTimeout?: () => void,
): ErrorAnswer {
  return (thrown, request, reply) => {
    const language = request.language ?? 'zh_Hans';
    // A list filter's `like` pattern PostgreSQL cannot compile is the caller's mistake, not ours.
    const known = mapQueryError(thrown);
    const error = (database ? mapDatabaseError(known, database) : known) as FastifyError | AppError;
    if (error instanceof AppError) {
      if (error.code === 'queryTimeout') onStatementTimeout?.();
      return reply.code(error.status).send(bodyFor(error, language));
    }
    if (hasZodFastifySchemaValidationErrors(error))
      return reply.code(400).send(validationBody(error.validation, language));
    const status = error.statusCode ?? 500;
    if (status < 500) {
      const code: ErrorCode =
        status === 413
          ? 'payloadTooLarge'
          : status === 429
            ? 'tooManyRequests'
            : status === 404
              ? 'notFound'
              : 'validation';
      return reply.code(status).send({ message: translate(ERRORS[code].message, language), code } satisfies ErrorBody);
    }
    logFailure(request, reply, 500, error);
    return reply
      .code(500)
      .send({ message: translate('error.internal', language), code: 'internal' } satisfies ErrorBody);
  };
}

/**
 * Fastify's `frameworkErrors`: what it meets before any route or hook runs (an address it cannot
 * decode, e.g. `%E0%A4%A`; a path parameter too long), answered by the one error handler with the
 * app's error shape, in the caller's language and with the security headers helmet's hook, which
 * does not run for them, would have set.
 */
export function answerFrameworkError(
  answer: ErrorAnswer,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): FastifyReply {
  request.language = pickLanguage(request.headers['accept-language']);
  reply.headers(API_SECURITY_HEADERS);
  return answer(error.code === 'FST_ERR_BAD_URL' ? new AppError('badUrl') : error, request, reply);
}

/** The one error handler for every route, and the answer of an unknown path. */
export function registerErrorHandler(app: FastifyInstance, answer: ErrorAnswer = errorAnswer()): void {
  app.setErrorHandler(answer);
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ message: translate('error.notFound', request.language ?? 'zh_Hans'), code: 'notFound' }),
  );
}
