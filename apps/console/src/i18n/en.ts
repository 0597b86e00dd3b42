import { licenseEn } from './license';
import { projectsEn } from './projects';
import { tenantsEn } from './tenants';
import type { ConsoleKey } from './zh_Hans';

/** Console strings, English. Must define every key of zh_Hans (checked by the type). */
export const en: Record<ConsoleKey, string> = {
  'app.defaultName': 'Gantry',
  'app.loading': 'Loading…',

  'common.save': 'Save',
  'common.submit': 'Submit',
  'common.reload': 'Reload',
  'common.backHome': 'Back to home',
  'common.yes': 'Yes',
  'common.no': 'No',

  'request.accessDenied': 'Access denied',
  'request.updateLicense': 'please update the license: ',
  'request.showDetails': 'show details',
  'request.hideDetails': 'hide details',
  'request.detailCode': 'Code',
  'request.detailStatus': 'Status',
  'request.detailPath': 'Path',
  'request.network': 'Network error, check the connection',
  'request.failed': 'The request failed',

  'login.title': 'space management',
  'login.username': 'Username',
  'login.usernameRequired': 'Please enter the username',
  'login.password': 'Password',
  'login.remember': 'Remember me',
  'login.code': 'Verification code',
  'login.codeImage': 'Verification code image, click for a new one',
  'login.showPassword': 'Show password',
  'login.hidePassword': 'Hide password',
  'login.submit': 'Log in',
  'login.failed': 'an error occurred in login, contact the system administrator',

  'regest.title': 'Set the administrator password',
  'regest.subtitle': 'First run: set the password of the administrator account admin',
  'regest.password': 'Password',
  'regest.password1': 'Repeat password',
  'regest.submit': 'Register',
  'regest.toLogin': 'Password already set? Log in',

  'strength.label': 'Password strength',
  'strength.weak': 'weak',
  'strength.medium': 'medium',
  'strength.strong': 'strong',
  'strength.best': 'best',

  'menu.dashboard': 'Home',
  'menu.projects': 'Project management',
  'menu.myProjects': 'My projects',
  'menu.tenants': 'Tenant management',
  'menu.license': 'Licence management',
  'menu.settings': 'System settings',
  'menu.settingsBasic': 'Basic settings',
  'menu.settingsProject': 'Project extension',
  'menu.crossRequest': 'Cross-origin',
  'menu.retention': 'Retention policy',
  'menu.help': 'Help docs',
  'menu.changePassword': 'Change password',
  'menu.userCenter': 'Personal centre',
  'menu.logout': 'Log out',
  'menu.language': 'Language',

  'language.zh_Hans': '简体中文',
  'language.en': 'English',

  'dashboard.welcome': 'Welcome, {{name}}',
  'dashboard.intro': 'This is the administration console of {{product}}.',
  'dashboard.roleAdmin': 'Platform administrator',
  'dashboard.roleTenant': 'Tenant',

  // tenants, table preferences, dashboard, audit
  ...tenantsEn,

  'changePassword.title': 'Change password',
  'changePassword.old': 'Old password',
  'changePassword.new': 'New password',
  'changePassword.new2': 'Repeat new password',
  'changePassword.submit': 'Change',

  'userCenter.title': 'Personal centre',
  'userCenter.id': 'ID',
  'userCenter.username': 'Username',
  'userCenter.name': 'Name',
  'userCenter.userId': 'User id',
  'userCenter.isAdmin': 'Platform administrator',
  'userCenter.expiresAt': 'Session valid until',

  'settings.title': 'Basic settings',
  'settings.sectionBasic': 'General',
  'settings.sectionSecurity': 'Login security policy',
  'settings.sectionMedia': 'Media library',
  'settings.name': 'System name',
  'settings.copyright': 'Copyright',
  'settings.language': 'System language',
  'settings.logo': 'System logo',
  'settings.backgroundImage': 'Login background',
  'settings.project_logo': 'Project logo',
  'settings.project_backgroundImage': 'Project background',
  'settings.errorCount': 'Wrong-password limit',
  'settings.errorCountHelp': 'empty or 0 = no limit',
  'settings.freezeDuration': 'Freeze duration',
  'settings.loginDuration': 'Login duration',
  'settings.loginDurationHelp': 'At least 10 minutes when counted in minutes',
  'settings.captchaMode': 'Verification code',
  'settings.captcha.off': 'Off',
  'settings.captcha.afterFailure': 'After a failed attempt',
  'settings.captcha.always': 'Always',
  'settings.publicDir': 'Public media-library folder',
  'settings.publicDirHelp': 'When on, every project media library shows a public folder',
  'settings.publicDirFeature': 'Permissions for subfolders and files',
  'settings.feature.mkDir': 'Create folder',
  'settings.feature.upload': 'Upload',
  'settings.feature.modify': 'Modify',
  'settings.feature.delete': 'Delete',

  'retention.title': 'Time-series retention policy',
  'retention.duration': 'Keep data for',
  'retention.days': 'equals {{days}} days',
  'retention.help': 'Time-series data older than this is removed',

  'cors.title': 'Cross-origin requests',
  'cors.enable': 'Allow cross-origin access',
  'cors.help': 'When on, browser pages from other origins may call the platform back-end API.',

  'upload.button': 'Upload image',
  'upload.remove': 'Remove',
  'upload.tooLarge': 'The image cannot be larger than {{size}} MB',

  'duration.count': 'Count',
  'duration.unit': 'Unit',

  'exception.noPermission': 'You have no permission to view this page',
  'exception.notFound': 'Sorry, the page you visited does not exist',
  'exception.comingSoon': 'Coming soon',

  // projects, grant form, opening sites
  ...projectsEn,

  // licence information, upload wizard, value-added services, licence history
  ...licenseEn,
};
