import { messagesFor } from '@gantry/shared';
import { zh_Hans } from './zh_Hans';

/** Every text of the console in simplified Chinese: loaded only when that is the language shown. */
export const translation = { ...messagesFor('zh_Hans'), ...zh_Hans };
