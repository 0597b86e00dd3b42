import { messagesFor } from '@gantry/shared';
import { en } from './en';

/** Every text of the console in English: loaded only when that is the language shown. */
export const translation = { ...messagesFor('en'), ...en };
