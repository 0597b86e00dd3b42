/** Messages of single sign-on (issue 34 §1): settings checks and sign-in refusals. Part of MESSAGES. */
export const SSO_MESSAGES = {
  'sso.issuer': {
    zh_Hans: '请填写身份提供方地址（https://…，仅本机可用 http）',
    en: 'Enter the identity provider’s address (https://…; http only on this machine)',
  },
  'sso.clientId': { zh_Hans: '请填写客户端 ID', en: 'Enter the client ID' },
  'sso.clientSecret': { zh_Hans: '客户端密钥无效', en: 'The client secret is not valid' },
  'sso.clientSecretRequired': { zh_Hans: '请填写客户端密钥', en: 'Enter the client secret' },
  'sso.scopes': {
    zh_Hans: '范围以空格分隔，且须包含 openid',
    en: 'Scopes are separated by spaces and must include openid',
  },
  'sso.buttonName': {
    zh_Hans: '请填写按钮名称（最多 32 个字符）',
    en: 'Enter the button’s name (at most 32 characters)',
  },
  'sso.disabled': { zh_Hans: '未启用单点登录', en: 'Single sign-on is not enabled' },
  'sso.failed': {
    zh_Hans: '单点登录失败或已过期，请重新登录',
    en: 'Single sign-on failed or expired; please sign in again',
  },
  'sso.providerUnavailable': {
    zh_Hans: '无法连接身份提供方，请稍后再试或联系管理员',
    en: 'The identity provider cannot be reached; try again later or ask the administrator',
  },
  'sso.unknownAccount': {
    zh_Hans: '该账号未在本平台开通，请联系管理员',
    en: 'This account has no access to the platform; ask the administrator',
  },
  'sso.noAccountClaim': {
    zh_Hans: '身份提供方未提供账号名称（{{claim}}）',
    en: 'The identity provider did not name the account ({{claim}})',
  },
  'sso.adminRefused': {
    zh_Hans: '管理员账号只能使用密码登录',
    en: 'The administrator account signs in with its password only',
  },
  'sso.passwordLoginDisabled': {
    zh_Hans: '租户请使用单点登录',
    en: 'Tenants sign in with single sign-on',
  },
} as const;
