import type { Language } from './validations.js';

/**
 * Messages of the backup screens (project and database backups, FTP storage, periodic backups): part
 * of MESSAGES for the server; the console loads them with those screens (their texts.ts), not with
 * every route.
 */
export const BACKUP_MESSAGES = {
  'ftp.hostRequired': { zh_Hans: '请输入 FTP 服务器地址', en: 'Enter the FTP server address' },
  'ftp.host': { zh_Hans: 'FTP 服务器地址不正确', en: 'The FTP server address is not valid' },
  'ftp.port': { zh_Hans: '端口应为 1 到 65535 的整数', en: 'The port must be a whole number from 1 to 65535' },
  'ftp.userRequired': { zh_Hans: '请输入 FTP 用户名', en: 'Enter the FTP user name' },
  'ftp.user': {
    zh_Hans: 'FTP 用户名不正确（最多 128 个字符）',
    en: 'The FTP user name is not valid (at most 128 characters)',
  },
  'ftp.passwordRequired': { zh_Hans: '请输入 FTP 密码', en: 'Enter the FTP password' },
  'ftp.password': {
    zh_Hans: 'FTP 密码不正确（最多 256 个字符）',
    en: 'The FTP password is not valid (at most 256 characters)',
  },
  'ftp.remoteFolder': {
    zh_Hans: '远程目录应以 / 开头，且不能包含 .. 或反斜杠',
    en: 'The remote folder must start with / and contain no .. or backslash',
  },
  'ftp.tls': { zh_Hans: '请选择加密方式', en: 'Choose the encryption' },
  'ftp.passiveOnly': { zh_Hans: '只支持被动模式', en: 'Only passive mode is supported' },
  // What an FTP operation ran into (FtpStorageError's failure kinds), without the server's own words.
  'ftp.error.dns': { zh_Hans: 'FTP 服务器名称无法解析（DNS）', en: 'the FTP server name could not be resolved (DNS)' },
  'ftp.error.refused': {
    zh_Hans: 'FTP 服务器拒绝连接或无法到达',
    en: 'the FTP server refused the connection or cannot be reached',
  },
  'ftp.error.timeout': { zh_Hans: 'FTP 服务器未及时响应', en: 'the FTP server did not answer in time' },
  'ftp.error.tls': { zh_Hans: '与 FTP 服务器的 TLS 加密连接失败', en: 'the TLS connection to the FTP server failed' },
  'ftp.error.noExplicitTls': {
    zh_Hans: 'FTP 服务器不支持显式 TLS（拒绝了 AUTH TLS）',
    en: 'the FTP server does not offer explicit TLS (it refused AUTH TLS)',
  },
  'ftp.error.login': {
    zh_Hans: 'FTP 服务器拒绝了用户名或密码',
    en: 'the FTP server refused the user name or password',
  },
  'ftp.error.permission': {
    zh_Hans: 'FTP 服务器拒绝了该操作（权限不足）',
    en: 'the FTP server refused the operation (permission)',
  },
  'ftp.error.notFound': { zh_Hans: 'FTP 服务器上没有该文件', en: 'the file does not exist on the FTP server' },
  'ftp.error.diskFull': { zh_Hans: '存储空间不足', en: 'there is no space left for the file' },
  'ftp.error.interrupted': {
    zh_Hans: '与 FTP 服务器的连接中断',
    en: 'the connection to the FTP server was interrupted',
  },
  'ftp.error.sizeMismatch': {
    zh_Hans: 'FTP 服务器上的文件大小与本地不符',
    en: 'the file size on the FTP server differs from the local one',
  },
  'ftp.error.notConfigured': {
    zh_Hans: 'FTP 存储未启用或配置不完整',
    en: 'FTP storage is not enabled or not fully configured',
  },
  'ftp.error.other': { zh_Hans: 'FTP 操作失败', en: 'the FTP operation failed' },
  'ftp.error.badFolder': {
    zh_Hans: '远程目录包含不允许的字符或 ..',
    en: 'the remote folder contains a character that is not allowed, or ..',
  },
  'ftp.error.noPassword': {
    zh_Hans: '未保存 FTP 密码：请输入密码',
    en: 'No FTP password is stored: enter the password',
  },
  'ftp.error.accountChanged': {
    zh_Hans: '服务器、端口或用户名与已保存的不同：请输入密码再测试',
    en: 'The server, port or user differs from the saved one: enter the password to test it',
  },
  'ftp.error.secretKey': {
    zh_Hans: '已保存的 FTP 密码无法解密（密钥已更换）：请在 FTP 设置中重新输入密码',
    en: 'The stored FTP password cannot be decrypted (the secret key changed): enter it again in the FTP settings',
  },
  'ftp.testPassed': {
    zh_Hans: '已连接 {{server}} 并登录，在“{{folder}}”中写入、读取并删除了测试文件',
    en: 'Connected to {{server}}, logged in, and wrote, read and deleted a file in "{{folder}}"',
  },
  'ftp.testStepFailed': { zh_Hans: '{{server}}：{{reason}}', en: '{{server}}: {{reason}}' },

  'backup.contentEmpty': { zh_Hans: '备份内容不能为空', en: 'backup content cannot be empty' },
  'backup.nameRequired': { zh_Hans: '请输入名称', en: 'name required' },
  'backup.nameTooLong': { zh_Hans: '名称最多 30 个字符', en: 'The name is at most 30 characters' },
  'backup.modulesRequired': { zh_Hans: '数据内容必填', en: 'data content required' },
  'backup.ruleRequired': { zh_Hans: '还原规则必填', en: 'restore rule required' },
  'backup.moduleUnknown': { zh_Hans: '未知的数据模块', en: 'Unknown data module' },
  'backup.notFound': { zh_Hans: '备份记录不存在', en: 'The backup record does not exist' },
  'backup.uploadNotZip': {
    zh_Hans: '上传文件格式错误，请上传压缩文件！',
    en: 'Upload file format error, please upload compressed file!',
  },
  'backup.uploadName': {
    zh_Hans: '备份文件名不能包含除点和下划线以外的特殊符号',
    en: 'Backup names allow no special symbols except dot and underscore',
  },
  'backup.tooLarge': { zh_Hans: '备份文件超过 {{max}} MB', en: 'The backup file is larger than {{max}} MB' },
  'backup.passwordRequired': {
    zh_Hans: '如需添加验证码，请先填写',
    en: 'if adding a verification code, fill it first',
  },
  'backup.passwordWrong': {
    zh_Hans: '验证码错误，无法打开备份文件',
    en: 'Wrong verification code: the backup file cannot be opened',
  },
  'backup.partMissing': {
    zh_Hans: '该备份不包含所选内容：{{parts}}',
    en: 'This backup does not hold the chosen content: {{parts}}',
  },
  'backup.archiveInvalid': {
    zh_Hans: '备份文件无效：{{problem}}',
    en: 'The backup file is not valid: {{problem}}',
  },
  'backup.restoreRunning': {
    zh_Hans: '该项目正在还原，请等它结束后再试',
    en: 'A restore of this project is running; try again when it has ended',
  },
  'dbBackup.restoring': {
    zh_Hans: '项目正在还原数据库备份，请在还原结束后再试',
    en: 'The project is restoring a database backup; try again when the restore has ended',
  },
  'dbBackup.notWhole': {
    zh_Hans: '这不是数据库备份：它只包含部分数据模块，请作为项目备份还原',
    en: 'This is not a database backup: it holds only some data modules (restore it as a project backup)',
  },
  'dbBackup.ftpUnavailable': { zh_Hans: 'FTP 存储未配置', en: 'FTP storage is not configured' },
  'dbBackup.ftpFailed': { zh_Hans: 'FTP 存储出错：{{reason}}', en: 'FTP storage failed: {{reason}}' },
  'dbBackup.ftpCopyFailed': {
    zh_Hans: '备份完成，但复制到 FTP 服务器失败：{{reason}}（本地备份已保留）',
    en: 'backup complete, but its copy to the FTP server failed: {{reason}} (the local backup is kept)',
  },
  'dbBackup.ftpNotConfiguredHint': {
    zh_Hans: 'FTP 存储未配置：管理员可在“系统设置 → FTP 存储”中配置',
    en: 'FTP storage is not configured: an administrator sets it up in System settings → FTP storage',
  },
  'dbBackup.dumped': { zh_Hans: '备份完成', en: 'backup complete' },
  'dbBackup.restored': { zh_Hans: '还原成功', en: 'Restore successful' },
  'dbBackup.paused': { zh_Hans: '任务已暂停', en: 'The job was paused' },
  'dbBackupCycle.notFound': { zh_Hans: '备份周期不存在', en: 'The backup cycle does not exist' },
  'dbBackupCycle.tooMany': {
    zh_Hans: '每个项目最多 {{max}} 个备份周期',
    en: 'A project has at most {{max}} backup cycles',
  },
  'dbBackupCycle.nameRequired': { zh_Hans: '请输入周期名称', en: 'cycle name required' },
  'dbBackupCycle.nameTooLong': { zh_Hans: '周期名称最多 30 个字符', en: 'The cycle name is at most 30 characters' },
  'dbBackupCycle.hoursRange': {
    zh_Hans: '周期（小时）须为 1 到 8760 的整数',
    en: 'The period is a whole number of hours from 1 to 8760',
  },
  'dbBackupCycle.keepRange': {
    zh_Hans: '保留份数须为 1 到 100 的整数',
    en: 'The number of backups kept is a whole number from 1 to 100',
  },
  'dbBackupCycle.enabledRequired': { zh_Hans: '请选择是否启用', en: 'enabled must be true or false' },
  'backup.safetyName': { zh_Hans: '还原前备份 {{time}}', en: 'safety {{time}}' },
  'backup.exported': { zh_Hans: '备份完成', en: 'backup complete' },
  'backup.restored': { zh_Hans: '还原成功', en: 'Restore successful' },
  'backup.problem.notZip': { zh_Hans: '不是 zip 文件，或文件已损坏', en: 'not a zip file, or damaged' },
  'backup.problem.manifestMissing': { zh_Hans: '缺少 manifest.json', en: 'manifest.json is missing' },
  'backup.problem.manifestInvalid': {
    zh_Hans: 'manifest.json 格式不正确（{{detail}}）',
    en: 'manifest.json is not valid ({{detail}})',
  },
  'backup.problem.version': {
    zh_Hans: '不支持的备份格式版本 {{version}}',
    en: 'unsupported backup format version {{version}}',
  },
  'backup.problem.unsafePath': {
    zh_Hans: '条目路径不安全：{{path}}',
    en: 'an entry path is not safe: {{path}}',
  },
  'backup.problem.symlink': { zh_Hans: '条目是符号链接：{{path}}', en: 'an entry is a symbolic link: {{path}}' },
  'backup.problem.unlisted': {
    zh_Hans: '条目不在清单中：{{path}}',
    en: 'an entry is not in the manifest: {{path}}',
  },
  'backup.problem.missing': {
    zh_Hans: '清单中的条目缺失：{{path}}',
    en: 'an entry of the manifest is missing: {{path}}',
  },
  'backup.problem.size': { zh_Hans: '条目大小不符：{{path}}', en: 'an entry has the wrong size: {{path}}' },
  'backup.problem.hash': {
    zh_Hans: '条目内容校验失败（SHA-256）：{{path}}',
    en: 'an entry fails its SHA-256 check: {{path}}',
  },
  'backup.problem.tooManyEntries': {
    zh_Hans: '条目超过 {{max}} 个',
    en: 'more than {{max}} entries',
  },
  'backup.problem.tooLarge': {
    zh_Hans: '解压后超过 {{max}} GB',
    en: 'more than {{max}} GB when expanded',
  },
  'backup.problem.ratio': {
    zh_Hans: '条目压缩比异常（疑似压缩炸弹）：{{path}}',
    en: 'an entry expands suspiciously far (a zip bomb?): {{path}}',
  },
  'backup.problem.unknownModule': { zh_Hans: '未知的数据模块：{{module}}', en: 'an unknown data module: {{module}}' },
  'backup.problem.badDocument': {
    zh_Hans: '数据模块 {{module}} 第 {{line}} 行不是有效的文档',
    en: 'line {{line}} of data module {{module}} is not a valid document',
  },
  'backup.problem.duplicate': {
    zh_Hans: '数据模块 {{module}} 中有重复的文档 id',
    en: 'data module {{module}} holds the same document id more than once',
  },
  'backup.problem.encrypted': {
    zh_Hans: '文件已加密，请填写验证码',
    en: 'the file is encrypted: give its verification code',
  },
  'backup.problem.truncated': { zh_Hans: '文件不完整或已损坏', en: 'the file is truncated or damaged' },
  'backup.problem.overlap': {
    zh_Hans: '文件中的条目相互重叠（疑似压缩炸弹）',
    en: 'entries of the file overlap (a zip bomb?)',
  },
  'backup.problem.mismatch': {
    zh_Hans: '条目的本地头与中央目录不一致',
    en: "an entry's local header disagrees with its central record",
  },
  'backup.problem.bomb': {
    zh_Hans: '整个文件的压缩比异常（{{ratio}} 倍，疑似压缩炸弹）',
    en: 'the file expands suspiciously far ({{ratio}} times its size: a zip bomb?)',
  },
  'backup.problem.noSpace': {
    zh_Hans: '解压需要 {{need}} MB，数据目录仅余 {{free}} MB 可用',
    en: 'it expands to {{need}} MB; the data directory has {{free}} MB to spare',
  },
} as const satisfies Record<string, Record<Language, string>>;
