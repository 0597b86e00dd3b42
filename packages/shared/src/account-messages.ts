/** Messages of two-factor sign-in and API tokens (issue 34 §2–3), for the server's answers. */
export const ACCOUNT_MESSAGES = {
  'totp.codeFormat': { zh_Hans: '请输入6位验证码或恢复码', en: 'Enter the 6-digit code or a recovery code' },
  'totp.codeWrong': { zh_Hans: '验证码错误', en: 'Wrong code' },
  'totp.pendingInvalid': {
    zh_Hans: '登录已过期，请重新输入密码',
    en: 'This sign-in has expired, enter your password again',
  },
  'totp.alreadyOn': { zh_Hans: '两步验证已开启', en: 'Two-factor sign-in is already on' },
  'totp.notOn': { zh_Hans: '两步验证未开启', en: 'Two-factor sign-in is not on' },
  'totp.noSetup': { zh_Hans: '请先生成密钥', en: 'Start the set-up first' },
  'totp.required': {
    zh_Hans: '系统设置要求此账号使用两步验证，无法关闭',
    en: 'The settings require two-factor sign-in for this account; it cannot be turned off',
  },
  'totp.offNeedsProof': { zh_Hans: '请输入密码或当前验证码', en: 'Enter your password or a current code' },
  'totp.turnedOff': { zh_Hans: '两步验证已关闭', en: 'Two-factor sign-in is off' },
  'apiToken.nameRequired': { zh_Hans: '请输入令牌名称', en: 'Enter a name for the token' },
  'apiToken.tooLong': { zh_Hans: '令牌有效期最长366天', en: 'A token lives at most 366 days' },
  'apiToken.tooMany': { zh_Hans: '令牌数量已达上限', en: 'This account holds the most tokens it may' },
  'apiToken.readOnly': { zh_Hans: '只读令牌不能修改数据', en: 'A read-only token cannot change anything' },
  'apiToken.sessionOnly': {
    zh_Hans: '此操作需要登录，不能使用API令牌',
    en: 'This needs a signed-in session, not an API token',
  },
  'apiToken.revoked': { zh_Hans: '令牌已撤销', en: 'Token revoked' },
} as const;
