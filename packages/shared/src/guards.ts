/**
 * Type guards for values whose type the compiler cannot know (parsed JSON, stored documents, caught
 * errors): each checks at run time what it claims, so no cast is needed after it.
 */

/** A JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `key` is one of `keys` (a closed list of names: enum values, object keys). */
export function isOneOf<const T extends string>(keys: readonly T[], key: unknown): key is T {
  return keys.some((name) => name === key);
}

/** A Node.js system error's `code` (`ENOENT`, `EEXIST`, …), if `error` has one. */
export function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string'
    ? error.code
    : undefined;
}

/** An optional string property of a stored document: the value when it is a string. */
export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
