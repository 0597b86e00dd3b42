/**
 * Messages of the project sites (issue 15): the front site's and back office's pages and the back
 * office's calls. Part of MESSAGES for the server; the console does not load them.
 */
export const SITE_MESSAGES = {
  'site.projectMissing': { zh_Hans: '项目不存在', en: 'There is no such project' },
  'site.projectDisabled': { zh_Hans: '该项目已被禁用', en: 'This project is disabled' },
  'site.tenantDisabled': { zh_Hans: '该项目所属的租户已被禁用', en: 'The tenant owning this project is disabled' },
  'site.grantNotStarted': {
    zh_Hans: '该项目的授权尚未开始（开始日期 {{date}}）',
    en: "This project's licence has not started yet (it starts on {{date}})",
  },
  'site.grantEnded': {
    zh_Hans: '该项目的授权已于 {{date}} 到期',
    en: "This project's licence ended on {{date}}",
  },
  'site.grantMissing': { zh_Hans: '该项目没有授权', en: 'This project has no licence' },
  'site.unavailableHint': {
    zh_Hans: '站点暂时无法使用，请联系项目管理员。',
    en: 'The site cannot be used now. Ask the project administrator.',
  },
  'site.unavailableTitle': { zh_Hans: '站点不可用', en: 'Site unavailable' },
  'site.welcome': { zh_Hans: '欢迎访问 {{name}}', en: 'Welcome to {{name}}' },
  'site.noPackage': {
    zh_Hans: '该项目的前台站点尚未上传网页包。',
    en: "This project's front site has no web package uploaded yet.",
  },
  'site.toBackOffice': { zh_Hans: '进入后台', en: 'Open the back office' },
  'site.backOffice': { zh_Hans: '后台管理', en: 'Back office' },
  'site.notProjectToken': {
    zh_Hans: '令牌到期，请重新登录',
    en: 'Token expired, please log in again',
  },
  'site.userLimit': {
    zh_Hans: '项目用户数已达到授权上限（{{max}} 个启用的用户）',
    en: 'The project has reached its licensed number of users ({{max}} enabled users)',
  },
  'site.usernameTaken': { zh_Hans: '用户名 {{username}} 已存在', en: 'The username {{username}} is taken' },
  'site.roleUnknown': { zh_Hans: '角色 {{role}} 不存在', en: 'There is no role {{role}}' },
  'site.roleInUse': {
    zh_Hans: '角色仍被 {{count}} 个用户使用，不能删除',
    en: 'The role is still given to {{count}} users and cannot be deleted',
  },
  'site.ownerOnly': {
    zh_Hans: '只有项目管理员（所属租户或平台管理员）可以管理项目用户和角色',
    en: 'Only the project administrator (its tenant or the platform administrator) manages project users and roles',
  },
  'site.ssoOff': { zh_Hans: '该项目未开启单点登录', en: 'Single sign-on is not on for this project' },
  'site.ssoCodeInvalid': {
    zh_Hans: '单点登录码无效或已过期，请从控制台重新打开后台',
    en: 'The sign-on code is not valid or has expired: open the back office from the console again',
  },
  'site.portInUse': {
    zh_Hans: '端口 {{port}} 已被其他程序占用',
    en: 'Port {{port}} is in use by another program',
  },
  'site.portUnavailable': {
    zh_Hans: '无法在端口 {{port}} 上监听：{{reason}}',
    en: 'Cannot listen on port {{port}}: {{reason}}',
  },
  'site.certificateInvalid': {
    zh_Hans: '证书文件无法读取（{{file}}）：请上传 PEM 格式的证书和私钥',
    en: 'The certificate file cannot be read ({{file}}): upload a PEM certificate and its private key',
  },
  'site.certificateMismatch': {
    zh_Hans: '私钥与证书不匹配',
    en: 'The private key does not belong to the certificate',
  },
  'site.certificateExpired': { zh_Hans: '证书已于 {{date}} 过期', en: 'The certificate expired on {{date}}' },
  'site.certificateNotYetValid': {
    zh_Hans: '证书要到 {{date}} 才生效',
    en: 'The certificate is not valid before {{date}}',
  },
} as const;
