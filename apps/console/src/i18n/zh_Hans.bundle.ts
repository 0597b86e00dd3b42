import { CORE_MESSAGES, messagesFor } from '@gantry/shared';
import { zh_Hans } from './zh_Hans';

/** Every text of the console (but the backup screens' messages, which come with those screens) in simplified Chinese: loaded only when that is the language shown. */
export const translation = { ...messagesFor('zh_Hans', CORE_MESSAGES), ...zh_Hans };
