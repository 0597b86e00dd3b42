/**
 * The periodic backup screens' texts (issue 13 §3; backups-data-designer.md §3 "Periodic backup
 * cycle"): added with the database backup page (pages/db-backup/texts.ts).
 */
export const periodicBackupZh = {
  'cycles.tab': '周期备份',
  'cycles.add': '新增周期',
  'cycles.addTitle': '新增备份周期',
  'cycles.editTitle': '编辑备份周期',
  'cycles.name': '周期名称',
  'cycles.hours': '周期（小时）',
  'cycles.every': '每 {{hours}} 小时',
  'cycles.keep': '保留份数',
  'cycles.enabled': '启用',
  'cycles.nextRun': '下次运行',
  'cycles.lastResult': '上次结果',
  'cycles.never': '尚未运行',
  'cycles.result.running': '运行中',
  'cycles.result.success': '成功',
  'cycles.result.failed': '失败',
  'cycles.actions': '操作',
  'cycles.edit': '编辑',
  'cycles.delete': '删除',
  'cycles.deleteConfirm': '删除备份周期“{{name}}”？它已做的备份保留在备份列表中。',
  'cycles.deleted': '删除成功',
  'cycles.saved': '保存成功',
  'cycles.nameRequired': '请输入周期名称',
  'cycles.nameTooLong': '周期名称最多 {{max}} 个字符',
  'cycles.hoursRange': '周期（小时）须为 {{min}} 到 {{max}} 的整数',
  'cycles.keepRange': '保留份数须为 {{min}} 到 {{max}} 的整数',
  'cycles.keepHelp': '只删除本周期做的较旧备份，手动备份不受影响',
  'cycles.empty': '暂无备份周期',
};
