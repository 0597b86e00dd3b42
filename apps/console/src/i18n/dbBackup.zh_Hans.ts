/**
 * The database backup page's texts (backups-data-designer.md §2, "Database backup dialog"): added to
 * i18next by pages/db-backup/texts.ts when the page loads, not with every route (weight/budgets.ts).
 */
export const dbBackupPageZh = {
  'dbBackups.titleBackup': '数据库备份',
  'dbBackups.titleRestore': '数据库还原',
  'dbBackups.tab.backup': '备份列表',
  'dbBackups.tab.ftp': 'FTP 列表',
  'dbBackups.uploadTime': '上传时间',
  'dbBackups.restoring': '正在还原数据库，还原结束前项目暂停使用',
  'dbBackups.complete': '备份完成',
  'dbBackups.restored': '还原成功',
  'dbBackups.failed': '失败',
  'dbBackups.codeTitle': '验证码',
  'dbBackups.codePrompt': '如备份文件下载时添加了验证码，请输入；否则可留空',
  'dbBackups.ftpEmpty': 'FTP 服务器上没有该项目的备份',
  'dbBackups.warning': '警告',
  'dbBackups.empty': '暂无备份',
} as const;
