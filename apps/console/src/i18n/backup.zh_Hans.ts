/**
 * What the end of a backup task says, wherever the user is: added to i18next by
 * services/backupTasks.ts, which only the task notifications (a chunk of their own) and the backup
 * page load, so no route carries these texts (weight/budgets.ts).
 */
export const backupTaskZh = {
  'task.type.backup.export': '项目备份',
  'task.type.backup.import': '项目还原',
  'task.type.dbBackup.dump': '数据库备份',
  'task.type.dbBackup.restore': '数据库还原（还原中，项目暂停使用）',
  'backups.complete': '备份完成',
  'backups.restored': '还原成功，5 秒后跳转到登录页，请重新登录以使还原的数据生效',
} as const;

/**
 * The backup page's own texts: added to i18next by pages/backup/texts.ts when the page loads, not
 * with every route (weight/budgets.ts); typed with the rest (i18n/index.ts LanguageResources).
 */
export const backupPageZh = {
  'backups.pickProject': '选择项目',
  'backups.tab.backups': '备份记录',
  'backups.tab.reduction': '还原记录',
  'backups.name': '名称',
  'backups.content': '备份内容',
  'backups.time': '备份时间',
  'backups.restoreTime': '还原时间',
  'backups.size': '大小',
  'backups.actions': '操作',
  'backups.kind.fileServer': '媒体库文件',
  'backups.kind.html': '前端页面',
  'backups.kind.mongodb': '数据',
  'backups.safety': '还原前自动备份',
  'backups.search': '按名称搜索',
  'backups.create': '新建备份',
  'backups.upload': '上传备份',
  'backups.batchDelete': '批量删除',
  'backups.deleteConfirm': '确定删除所选的 {{count}} 个备份？',
  'backups.deleted': '删除成功',
  'backups.batchDeleted': '批量删除成功',
  'backups.download': '下载',
  'backups.restore': '还原',
  'backups.delete': '删除',
  'backups.saved': '保存成功',
  'backups.all': '全选',
  'backups.modules': '数据内容',
  'backups.exempt': '不备份的媒体文件夹',
  'backups.pickFolders': '选择文件夹',
  'backups.searchFolders': '搜索文件夹',
  'backups.sizeTotal': '所选内容约 {{mb}} MB',
  'backups.large': '所选内容超过 {{mb}} MB，备份需要较长时间，确定继续？',
  'backups.htmlWarning': '前端页面会替换项目的前端文件，可能改变页面样式',
  'backups.started': '已开始，进度见右上角通知',
  'backups.rule': '还原规则',
  'backups.rule.0': '覆盖重复数据并新增',
  'backups.rule.1': '新增，不覆盖重复数据',
  'backups.rule.2': '清空后新增',
  'backups.plan': '预演',
  'backups.plan.module': '数据模块',
  'backups.plan.added': '新增',
  'backups.plan.overwritten': '覆盖',
  'backups.plan.kept': '保留',
  'backups.plan.deleted': '删除',
  'backups.plan.replaced': '替换',
  'backups.replaceConfirm': '还原将替换项目现有的数据，确定继续？',
  'backups.addCode': '添加验证码',
  'backups.code': '验证码',
  'backups.uploadPick': '选择备份文件（.zip）',
  'backups.uploadLarge': '文件超过 2 GB，上传需要较长时间，确定继续？',
  'backups.uploaded': '上传成功',
  'backups.uploadFailed': '上传失败！',
} as const;
