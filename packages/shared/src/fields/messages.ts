import type { FIELD_MESSAGES } from '../fields-messages.js';

export type FieldMessageKey = keyof typeof FIELD_MESSAGES;
