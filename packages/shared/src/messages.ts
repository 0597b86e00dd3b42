import type { Language } from './validations.js';

/**
 * Messages both sides show: server errors and the shared validation rules. The console merges
 * these into its own i18n resources; the server answers in the language of Accept-Language.
 * Wording named by the spec is kept verbatim.
 */
export const CORE_MESSAGES = {
  'error.validation': { zh_Hans: '请求参数错误', en: 'Invalid request' },
  'error.invalidField': { zh_Hans: '{{field}}格式不正确', en: '{{field}} is not valid' },
  'error.unknownField': { zh_Hans: '不认识的字段：{{field}}', en: 'Unknown field: {{field}}' },
  'error.notFound': { zh_Hans: '请求的资源不存在', en: 'Not found' },
  'error.badUrl': {
    zh_Hans: '请求地址无效：其中的百分号编码有误',
    en: 'The address is not valid: it holds a malformed percent-encoding',
  },
  'error.unauthorized': { zh_Hans: '令牌到期，请重新登录', en: 'Token expired, please log in again' },
  'error.forbidden': { zh_Hans: '您没有权限进行该操作', en: 'You have no permission for this operation' },
  'error.internal': { zh_Hans: '服务器出错了', en: 'Server error' },
  'error.queryTimeout': {
    zh_Hans: '查询超过{{seconds}}秒未完成，已被停止，请缩小查询范围后重试',
    en: 'The query ran longer than {{seconds}} s and was stopped; narrow it down and try again',
  },
  'error.databaseUnavailable': {
    zh_Hans: '数据库暂时不可用，请稍后再试',
    en: 'The database is not available right now; please try again shortly',
  },
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

  'task.ended': { zh_Hans: '任务已结束，不能暂停', en: 'The task has ended: it cannot be paused' },
  /** A task's outcome when the engine, not its work, ended it (stored as the key, shown translated). */
  'task.paused': { zh_Hans: '已暂停', en: 'Paused' },
  'task.pausedBeforeStart': { zh_Hans: '开始前已暂停', en: 'Paused before it started' },
  'task.serverStopped': { zh_Hans: '任务运行时服务器停止了', en: 'The server stopped while the task ran' },
  'task.internalFailure': {
    zh_Hans: '服务器内部错误，详情见服务器日志',
    en: 'Internal error: the server log has the details',
  },
  'retention.removed': {
    zh_Hans: '已删除 {{cutoff}} 之前存储的 {{count}} 条数据记录',
    en: 'Removed {{count}} data records stored before {{cutoff}}',
  },
  'retention.removedWithAudit': {
    zh_Hans:
      '已删除 {{cutoff}} 之前存储的 {{count}} 条数据记录，以及 {{auditCutoff}} 之前写入的 {{auditCount}} 条操作日志',
    en: 'Removed {{count}} data records stored before {{cutoff}} and {{auditCount}} audit entries written before {{auditCutoff}}',
  },
  'data.modelNotFound': { zh_Hans: '模型不存在：{{name}}', en: 'Model not found: {{name}}' },
  'data.projectHeaderMissing': {
    zh_Hans: '请求头 x-request-project 缺少项目编号',
    en: 'The x-request-project header must name the project',
  },
  'data.projectReadOnly': {
    zh_Hans: '项目或其租户已禁用，数据不能修改',
    en: 'The project or its tenant is disabled: its data cannot be changed',
  },
  'data.documentInvalid': { zh_Hans: '文档无效：{{reason}}', en: 'Invalid document: {{reason}}' },
  'data.idTaken': { zh_Hans: '编号已存在：{{id}}', en: 'A document with id {{id}} exists already' },
  'data.documentTooLarge': {
    zh_Hans: '文档超过 {{max}} 字节',
    en: 'The document is larger than {{max}} bytes',
  },

  'grant.required': { zh_Hans: '{{label}}不能为空', en: '{{label}} is required' },
  'grant.earlierThanParent': {
    zh_Hans: '{{label}}不能早于授权{{label}}',
    en: '{{label}} cannot be earlier than the granted {{label}}',
  },
  'grant.exceedsParent': {
    zh_Hans: '{{label}}不能大于授权{{label}}',
    en: '{{label}} cannot be greater than the granted {{label}} (at most {{limit}})',
  },
  'grant.endAfterParent': {
    zh_Hans: '{{label}}不能大于授权{{label}}',
    en: '{{label}} cannot be later than the granted {{label}} ({{limit}})',
  },
  'grant.startBeforeToday': { zh_Hans: '{{label}}不能早于今天', en: '{{label}} cannot be before today' },
  'grant.belowAllocated': {
    zh_Hans: '{{label}}不能小于已分配的{{allocated}}',
    en: '{{label}} cannot be less than the {{allocated}} already allocated',
  },
  'grant.laterThanChildren': {
    zh_Hans: '{{label}}不能晚于已分配项目的{{label}}（{{limit}}）',
    en: '{{label}} cannot be later than the {{label}} already allocated to projects ({{limit}})',
  },
  'grant.endBeforeChildren': {
    zh_Hans: '{{label}}不能早于已分配项目的{{label}}（{{limit}}）',
    en: '{{label}} cannot be earlier than the {{label}} already allocated to projects ({{limit}})',
  },
  'grant.featureInUse': {
    zh_Hans: '功能{{label}}已分配给项目，不能移除',
    en: 'The feature {{label}} is allocated to projects and cannot be removed',
  },
  'grant.featureNotInParent': {
    zh_Hans: '授权中没有该功能：{{label}}',
    en: 'The granted licence does not include the feature {{label}}',
  },
  'grant.invalidCount': {
    zh_Hans: '请输入不小于1的整数（不能为0、小数或负数，且不超过上限）',
    en: 'Enter a whole number of at least 1 (not 0, a decimal or negative, and within the maximum)',
  },
  'grant.invalidDate': { zh_Hans: '日期格式应为YYYY-MM-DD', en: 'The date must be YYYY-MM-DD' },
  'grant.missing': { zh_Hans: '请检查可用授权', en: 'please check available licence' },
  'grant.label.validityPeriod': { zh_Hans: '有效期', en: 'Validity period' },
  'grant.label.startTime': { zh_Hans: '开始时间', en: 'Start time' },
  'grant.label.endTime': { zh_Hans: '结束时间', en: 'End time' },
  'grant.label.userCount': { zh_Hans: '用户数', en: 'User count' },
  'grant.label.flow.tableCount': { zh_Hans: '表数量', en: 'Table count' },
  'grant.label.flow.flowCount': { zh_Hans: '流程数', en: 'Flow count' },
  'grant.label.dataGathering.point': { zh_Hans: '数据点数', en: 'Data points' },
  'grant.label.dataGathering.calcPoint': { zh_Hans: '计算点数', en: 'Calculated points' },
  'grant.label.dataGathering.deviceCount': { zh_Hans: '设备记录数', en: 'Device records' },
  'grant.label.visual.dashboardCount': { zh_Hans: '大屏数', en: 'Screens' },
  'grant.label.eventCount': { zh_Hans: '事件数', en: 'Events' },
  'grant.label.eventHandlerCount': { zh_Hans: '动作数', en: 'Actions' },
  'grant.label.reportCount': { zh_Hans: '报表数', en: 'Reports' },
  'grant.label.dataAnalysisLinkCount': { zh_Hans: '链接数', en: 'Link counts' },
  'licence.missing': { zh_Hans: '请先上传授权再添加项目', en: 'upload a licence before adding projects' },
  'licence.expired': { zh_Hans: '授权已过期', en: 'The licence has expired' },
  'licence.expiredOn': { zh_Hans: '授权已于{{date}}过期', en: 'The licence expired on {{date}}' },
  'licence.notYetValid': { zh_Hans: '授权自{{date}}起才生效', en: 'The licence is not valid before {{date}}' },
  'licence.none': { zh_Hans: '尚未上传平台授权', en: 'No platform licence has been uploaded' },
  'licence.malformed': { zh_Hans: '授权文件格式不正确', en: 'The file is not a valid licence file' },
  'licence.tooLarge': { zh_Hans: '授权文件过大', en: 'The file is too large to be a licence file' },
  'licence.signature': {
    zh_Hans: '授权文件签名无效：文件已被修改，或不是由可信密钥签发',
    en: 'The licence signature is invalid: the file was altered or not signed by a trusted key',
  },
  'licence.untrusted': {
    zh_Hans: '授权文件的签名密钥（{{keyId}}）不受本服务器信任',
    en: 'The licence was signed by a key this server does not trust ({{keyId}})',
  },
  'licence.development': {
    zh_Hans: '生产环境不接受开发用授权',
    en: 'A development licence is not accepted in production',
  },
  'licence.product': {
    zh_Hans: '该授权属于产品{{product}}，而不是{{expected}}',
    en: 'This licence is for the product {{product}}, not {{expected}}',
  },
  'licence.otherMachine': {
    zh_Hans: '该授权属于另一台机器（机器码{{licensed}}），本机机器码为{{machine}}',
    en: "This licence was issued for another machine ({{licensed}}); this machine's code is {{machine}}",
  },
  'licence.otherMachineHidden': {
    zh_Hans: '平台授权不属于本机，请联系管理员更新授权',
    en: 'The platform licence was issued for another machine; ask the administrator to update it',
  },
  'licence.tooSmall': {
    zh_Hans: '新授权的{{label}}（{{granted}}）少于已分配的数量（{{allocated}}）',
    en: 'The new licence grants {{granted}} for {{label}}, less than is already allocated ({{allocated}})',
  },
  'licence.featureMissing': {
    zh_Hans: '授权不包含功能{{feature}}',
    en: 'The licence does not include the feature {{feature}}',
  },

  'tenant.idRule': {
    zh_Hans: '用户ID须以小写字母开头，只能包含小写字母、数字、下划线和连字符（3-32位）',
    en: 'The user id starts with a lowercase letter and holds lowercase letters, digits, _ and - (3-32)',
  },
  'tenant.idTaken': { zh_Hans: '用户ID已存在', en: 'This user id is already taken' },
  'tenant.nameRequired': { zh_Hans: '请输入名称', en: 'Please enter the name' },
  'tenant.hasProjects': {
    zh_Hans: '该租户还有{{count}}个项目，请先删除或转移这些项目',
    en: 'This tenant still owns {{count}} project(s); delete or move them first',
  },
  'tenant.disabled': { zh_Hans: '租户已被禁用', en: 'The tenant is disabled' },
  'tenant.saved': { zh_Hans: '保存租户成功', en: 'save tenant successful' },
  'tenant.notYourProject': {
    zh_Hans: '所选项目不属于该租户：{{ids}}',
    en: 'These projects do not belong to the tenant: {{ids}}',
  },
  'table.columnsRequired': { zh_Hans: '至少需要选择一个配置项', en: 'Select at least one item' },
  'table.pageSize': { zh_Hans: '每页条数须为不小于1的整数', en: 'The page size is a whole number of at least 1' },

  'project.idDigits': { zh_Hans: '项目ID不能全为数字', en: 'The project id cannot be all digits' },
  'project.idStart': { zh_Hans: '项目ID必须以小写字母开头', en: 'The project id must start with a lowercase letter' },
  'project.idUppercase': { zh_Hans: '项目ID不能包含大写字母', en: 'The project id cannot contain uppercase letters' },
  'project.idDefault': { zh_Hans: '项目ID不能为default', en: "The project id cannot be 'default'" },
  'project.idChars': {
    zh_Hans: '项目ID只能包含小写字母和数字',
    en: 'The project id may hold only lowercase letters and digits',
  },
  'project.idTooLong': { zh_Hans: '项目ID最多32位', en: 'The project id is at most 32 characters' },
  'project.idTaken': { zh_Hans: '项目ID已存在', en: 'This project id is already taken' },
  'project.nameRequired': { zh_Hans: '请输入项目名称', en: 'Please enter the project name' },
  'project.domainFormat': { zh_Hans: '域名格式错误！', en: 'domain format error!' },
  'project.domainTaken': { zh_Hans: '该域名已被其他项目使用', en: 'This domain is used by another project' },
  'project.portRange': { zh_Hans: '端口范围为5001-65535', en: 'The port must be from 5001 to 65535' },
  'project.portOutsideRange': {
    zh_Hans: '端口须在管理员设定的范围 {{min}}-{{max}} 之内',
    en: 'The port must be within the range the administrator set: {{min}} to {{max}}',
  },
  'project.portTaken': { zh_Hans: '该端口已被其他项目使用', en: 'This port is used by another project' },
  'project.templateRequired': {
    zh_Hans: '请选择方案库后再提交',
    en: 'please select a solution library before submitting',
  },
  'project.certificatesRequired': { zh_Hans: '请上传全部证书', en: 'please upload all certificates' },
  'project.certificateFiles': {
    zh_Hans: '只能上传.key和.pem文件各一个，文件名只能包含中文、字母、数字、点和下划线',
    en: 'only .key and .pem, one each; file names may hold only Chinese characters, letters, digits, dot and underscore',
  },
  'project.typeNotAllowed': {
    zh_Hans: '您没有创建该类型项目的权限',
    en: 'You are not allowed to create this kind of project',
  },
  'project.ownerUnknown': { zh_Hans: '所属租户不存在', en: 'The owning tenant does not exist' },
  'project.added': { zh_Hans: '添加项目成功', en: 'add project successful!' },
  'project.modified': { zh_Hans: '修改项目成功', en: 'modify project successful!' },
  'project.deleted': { zh_Hans: '删除成功', en: 'delete successful' },
  'project.runtimeKey': { zh_Hans: '项目运行密钥无效', en: 'The project runtime key is not valid' },

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
  'settings.helpUrl': {
    zh_Hans: '帮助文档地址应为以 / 开头的本站路径或 http(s) 地址',
    en: 'The help address must be a path on this server (starting with /) or an http(s) address',
  },
  'settings.sitePorts': { zh_Hans: '项目端口范围', en: 'Project port range' },
  'settings.sitePortsHelp': {
    zh_Hans: '项目站点可使用的端口（5001-65535 之内）；范围外的端口保存时被拒绝，已使用的端口不受影响',
    en: 'The ports project sites may use (within 5001-65535); a port outside is refused when saved, ports in use stay',
  },
  'settings.sitePortMin': { zh_Hans: '最小端口', en: 'Lowest port' },
  'settings.sitePortMax': { zh_Hans: '最大端口', en: 'Highest port' },
  'settings.sitePortOrder': { zh_Hans: '最小端口不能大于最大端口', en: 'The lowest port cannot be above the highest' },
  'settings.saved': { zh_Hans: '保存成功', en: 'Successfully saved' },
  'upload.notImage': {
    zh_Hans: '只能上传图片文件（PNG、JPEG、GIF、WebP、BMP、ICO）',
    en: 'Only image files can be uploaded (PNG, JPEG, GIF, WebP, BMP, ICO)',
  },
  'upload.noFile': { zh_Hans: '请选择要上传的文件', en: 'Choose a file to upload' },
  'upload.oneFile': { zh_Hans: '一次只能上传一个文件', en: 'Upload one file at a time' },
  'upload.malformed': {
    zh_Hans: '上传的表单不完整或格式错误（multipart/form-data）',
    en: 'The upload is not a complete multipart/form-data form (cut short, or without its boundary)',
  },

  'unit.d': { zh_Hans: '天', en: 'day(s)' },
  'unit.h': { zh_Hans: '小时', en: 'hour(s)' },
  'unit.m': { zh_Hans: '分钟', en: 'minute(s)' },
  'unit.s': { zh_Hans: '秒', en: 'second(s)' },
  'unit.w': { zh_Hans: '周', en: 'week(s)' },
  'unit.M': { zh_Hans: '月', en: 'month(s)' },
  'unit.Y': { zh_Hans: '年', en: 'year(s)' },
  /** Whole-platform backups (issue 13 §4): any screen may meet the restore's 503. */
  'platform.restoring': {
    zh_Hans: '平台正在从备份还原，请在还原结束后再试',
    en: 'The platform is being restored from a backup; try again when the restore has ended',
  },
  'platform.notFound': { zh_Hans: '平台备份不存在', en: 'No such platform backup' },
  'platform.tasksRunning': {
    zh_Hans: '有 {{count}} 个任务正在运行：请等它们结束或暂停后再还原',
    en: '{{count}} tasks are running: wait for them to end, or pause them, then restore',
  },
} as const satisfies Record<string, Record<Language, string>>;

export type CoreMessageKey = keyof typeof CORE_MESSAGES;

/** The core messages only: for code the console loads on every route (e.g. grant checks). */
export function isCoreMessageKey(key: string): key is CoreMessageKey {
  return Object.hasOwn(CORE_MESSAGES, key);
}

/** A message's template with its `{{name}}` parameters filled in. */
export function fill(template: string, params: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => String(params[name] ?? ''));
}

/** `translate` (all-messages.ts) over the core messages only (see isCoreMessageKey). */
export function translateCore(
  key: CoreMessageKey,
  language: Language,
  params: Record<string, string | number> = {},
): string {
  return fill(CORE_MESSAGES[key][language], params);
}

/** Accept-Language → one of our languages: 'en…' is English, everything else the default. */
export function pickLanguage(header: string | undefined | null): Language {
  if (!header) return 'zh_Hans';
  const first = header.split(',')[0]?.trim().toLowerCase() ?? '';
  return first.startsWith('en') ? 'en' : 'zh_Hans';
}

/** Per-language message tables for i18next resources: CORE_MESSAGES, or BACKUP_MESSAGES. */
export function messagesFor<K extends string>(
  language: Language,
  messages: Record<K, Record<Language, string>>,
): Record<K, string> {
  const table = {} as Record<K, string>;
  for (const key of Object.keys(messages) as K[]) table[key] = messages[key][language];
  return table;
}
