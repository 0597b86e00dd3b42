import type { Language } from './validations.js';

/**
 * Messages both sides show: server errors and the shared validation rules. The console merges
 * these into its own i18n resources; the server answers in the language of Accept-Language.
 * Wording named by the spec is kept verbatim.
 */
export const MESSAGES = {
  'error.validation': { zh_Hans: '请求参数错误', en: 'Invalid request' },
  'error.invalidField': { zh_Hans: '{{field}}格式不正确', en: '{{field}} is not valid' },
  'error.notFound': { zh_Hans: '请求的资源不存在', en: 'Not found' },
  'error.unauthorized': { zh_Hans: '令牌到期，请重新登录', en: 'Token expired, please log in again' },
  'error.forbidden': { zh_Hans: '您没有权限进行该操作', en: 'You have no permission for this operation' },
  'error.internal': { zh_Hans: '服务器出错了', en: 'Server error' },
  'error.tooManyRequests': { zh_Hans: '请求过于频繁，请稍后再试', en: 'Too many requests, please try again later' },
  'error.payloadTooLarge': { zh_Hans: '上传的文件过大', en: 'The uploaded file is too large' },
  'error.nulCharacter': { zh_Hans: '不能包含空字符（\\u0000）', en: 'must not contain the NUL character (\\u0000)' },
  'error.corsDisabled': { zh_Hans: '未开启跨域访问', en: 'Cross-origin access is not enabled' },

  'auth.badCredentials': { zh_Hans: '用户名或密码错误', en: 'Wrong username or password' },
  'auth.adminMissing': { zh_Hans: '请先设置admin密码，才可以登录！', en: 'Set the admin password first, then log in!' },
  'auth.adminExists': { zh_Hans: '管理员账号已存在', en: 'The administrator account already exists' },
  'auth.adminRegistered': { zh_Hans: '管理员账号注册成功', en: 'Administrator account registered' },
  'auth.frozen': {
    zh_Hans: '密码错误次数过多，账号已冻结，请{{wait}}后再试',
    en: 'Too many wrong passwords: the account is frozen, try again in {{wait}}',
  },
  'auth.disabled': { zh_Hans: '账号已被禁用', en: 'This account is disabled' },
  'auth.captchaRequired': { zh_Hans: '请输入验证码', en: 'Please enter the verification code' },
  'auth.captchaInvalid': { zh_Hans: '验证码错误或已过期', en: 'Wrong or expired verification code' },
  'auth.oldPasswordWrong': { zh_Hans: '原密码输入错误', en: 'The old password is wrong' },
  'auth.passwordChanged': { zh_Hans: '修改成功请重新登录', en: 'Password changed, please log in again' },
  'auth.loggedOut': { zh_Hans: '退出成功', en: 'Logged out' },
  'auth.passwordNotHashed': { zh_Hans: '密码必须以哈希形式发送', en: 'The password must be sent hashed' },
  'auth.verifyFailed': { zh_Hans: '校验失败，密码不正确', en: 'Verification failed, wrong password' },
  'auth.verifySucceeded': { zh_Hans: '校验成功', en: 'verification successful' },

  'list.badQuery': { zh_Hans: '查询条件无效：{{reason}}', en: 'Invalid query: {{reason}}' },

  'password.required': { zh_Hans: '请输入密码', en: 'Please enter the password' },
  'password.tooShort': { zh_Hans: '密码不能少于6位', en: 'password cannot be less than 6 characters' },
  'password.tooLong': { zh_Hans: '密码不能多于30位', en: 'password cannot be more than 30 characters' },
  'password.composition': { zh_Hans: '密码必须包含字母和数字', en: 'password must combine letters and digits' },
  'password.mismatch': { zh_Hans: '两次输入的密码不一致', en: 'the two passwords entered do not match' },

  'settings.nameRequired': { zh_Hans: '系统名称不能为空', en: 'System name is required' },
  'settings.nameTooLong': { zh_Hans: '系统名称过长', en: 'System name is too long' },
  'settings.countMin0': { zh_Hans: '最小值为0', en: 'The minimum is 0' },
  'settings.countMin1': { zh_Hans: '请输入大于等于1的整数', en: 'Enter a whole number of at least 1' },
  'settings.countMax': { zh_Hans: '不能大于1000000', en: 'The maximum is 1000000' },
  'settings.imageUrl': { zh_Hans: '图片地址不正确', en: 'The image address is not valid' },
  'settings.saved': { zh_Hans: '保存成功', en: 'Successfully saved' },

  'upload.notImage': {
    zh_Hans: '只能上传图片文件（PNG、JPEG、GIF、WebP、BMP、ICO）',
    en: 'Only image files can be uploaded (PNG, JPEG, GIF, WebP, BMP, ICO)',
  },
  'upload.noFile': { zh_Hans: '请选择要上传的文件', en: 'Choose a file to upload' },
  'upload.oneFile': { zh_Hans: '一次只能上传一个文件', en: 'Upload one file at a time' },

  'unit.d': { zh_Hans: '天', en: 'day(s)' },
  'unit.h': { zh_Hans: '小时', en: 'hour(s)' },
  'unit.m': { zh_Hans: '分钟', en: 'minute(s)' },
  'unit.s': { zh_Hans: '秒', en: 'second(s)' },
  'unit.w': { zh_Hans: '周', en: 'week(s)' },
  'unit.M': { zh_Hans: '月', en: 'month(s)' },
  'unit.Y': { zh_Hans: '年', en: 'year(s)' },
} as const satisfies Record<string, Record<Language, string>>;

export type MessageKey = keyof typeof MESSAGES;

export function isMessageKey(key: string): key is MessageKey {
  return Object.hasOwn(MESSAGES, key);
}

export function translate(key: MessageKey, language: Language, params: Record<string, string | number> = {}): string {
  const template: string = MESSAGES[key][language];
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** Accept-Language → one of our languages: 'en…' is English, everything else the default. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return 'zh_Hans';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh_Hans';
}

/** Per-language message tables for i18next resources. */
export function messagesFor(language: Language): Record<MessageKey, string> {
  const table = {} as Record<MessageKey, string>;
  for (const key of Object.keys(MESSAGES) as MessageKey[]) table[key] = MESSAGES[key][language];
  return table;
}
