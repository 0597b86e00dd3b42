import { ERRORS, type ErrorCode, type MessageKey } from '@gantry/shared';

/**
 * An error with a stable id from the shared catalogue. The error handler turns it into
 * `{message, code, fields?}` in the caller's language.
 */
export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    readonly options: {
      params?: Record<string, string | number>;
      /** Field → message key, shown beside form fields. */
      fields?: Record<string, MessageKey>;
      status?: number;
    } = {},
  ) {
    super(code);
    this.status = options.status ?? ERRORS[code].status;
  }
}
