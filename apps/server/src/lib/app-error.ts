import { ERRORS, type ErrorCode, type MessageKey } from '@gantry/shared';

/** A field's message with params of its own; a param that is itself a message key is translated first. */
export interface FieldMessage {
  key: MessageKey;
  params: Record<string, string | number>;
}

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
      /** Field → message key (or key with its own params), shown beside form fields. */
      fields?: Record<string, MessageKey | FieldMessage>;
      /** Use the first field's text as the message (grant problems: the form shows it at the top). */
      messageFromFields?: boolean;
      status?: number;
      /** A message other than the code's own (same code, a more fitting text). */
      message?: MessageKey;
    } = {},
  ) {
    super(code);
    this.status = options.status ?? ERRORS[code].status;
  }
}
