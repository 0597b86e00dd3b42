import i18n from '../../../i18n';
import { addMediaMessages } from '../../../i18n/screenMessages';

// The shared media messages (path rules, file problems) come with the page, not with every route
// (weight/budgets.ts).
addMediaMessages(i18n);
