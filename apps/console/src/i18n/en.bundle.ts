import { CORE_MESSAGES, messagesFor } from '@gantry/shared';
import { en } from './en';

/** Every text of the console (but the backup screens' messages, which come with those screens) in English: loaded only when that is the language shown. */
export const translation = { ...messagesFor('en', CORE_MESSAGES), ...en };
