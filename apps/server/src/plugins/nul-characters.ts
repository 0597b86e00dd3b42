import type { MessageKey } from '@gantry/shared';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../lib/app-error.js';

/** Deeper input than any form sends; walking it (or storing it as JSON) must not exhaust a stack. */
export const MAX_INPUT_DEPTH = 64;

export interface InputProblem {
  /** Dotted path of the offending value ('_' for the whole input). */
  field: string;
  key: MessageKey;
}

const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why a text cannot be stored: U+0000 (text and jsonb refuse it), or a lone surrogate (jsonb refuses it). */
function textProblem(text: string): MessageKey | undefined {
  if (text.includes('\u0000')) return 'error.nulCharacter';
  return LONE_SURROGATE.test(text) ? 'error.invalidField' : undefined;
}

/** No input, or an empty query or parameter list: most requests, which need no walk (issue 33). */
function isEmpty(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value !== 'object') return false;
  for (const _ in value) return false;
  return true;
}

/**
 * The first string (value or key) PostgreSQL could not store, or the first value nested deeper than
 * MAX_INPUT_DEPTH. Iterative, so a hostile nesting depth costs no stack.
 */
export function findBadInput(value: unknown): InputProblem | undefined {
  if (isEmpty(value)) return undefined;
  const stack: Array<{ value: unknown; path: string; depth: number }> = [{ value, path: '', depth: 0 }];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const { path, depth } = item;
    const field = path || '_';
    if (typeof item.value === 'string') {
      const key = textProblem(item.value);
      if (key) return { field, key };
      continue;
    }
    if (item.value === null || typeof item.value !== 'object' || ArrayBuffer.isView(item.value)) continue;
    if (depth >= MAX_INPUT_DEPTH) return { field, key: 'error.invalidField' };
    const entries: Array<[string, unknown]> = Array.isArray(item.value)
      ? item.value.map((inner, i) => [String(i), inner])
      : Object.entries(item.value);
    for (const [name, inner] of entries.reverse()) {
      const key = Array.isArray(item.value) ? undefined : textProblem(name);
      if (key) return { field, key };
      stack.push({ value: inner, path: path ? `${path}.${name}` : name, depth: depth + 1 });
    }
  }
  return undefined;
}

/** A 400 naming the field, for what `findBadInput` found. */
export function badInputError(problem: InputProblem): AppError {
  return new AppError('validation', {
    fields: { [problem.field]: problem.key },
    params: { field: problem.field },
  });
}

/**
 * PostgreSQL cannot store U+0000 in text or jsonb, nor a lone surrogate in jsonb, and a value nested
 * thousands deep overflows a stack on the way. Refuse them at the door, for every body, query and
 * path parameter, with a 400 that names the field, instead of a 500 deep inside.
 */
export function rejectNulCharacters(app: FastifyInstance): void {
  // Callback-style: every request runs it, and an async hook costs a promise even when all is well.
  app.addHook('preValidation', (request, _reply, done) => {
    const problem = findBadInput(request.query) ?? findBadInput(request.body) ?? findBadInput(request.params);
    done(problem ? badInputError(problem) : undefined);
  });
}
