/**
 * Messages of the table functions shift table and mapping table (backups-data-designer.md §4a, §8
 * 'data sync exception'; issue 32): part of MESSAGES for the server; the console loads them with
 * the dialogs of these functions.
 */
export const TABLE_FUNCTION_MESSAGES = {
  'table.syncMismatch': {
    zh_Hans: '数据同步异常：确认后将删除不匹配的字段',
    en: 'data sync exception: mismatched fields are deleted on confirm',
  },
  'table.syncFailed': { zh_Hans: '数据同步异常：{{reason}}', en: 'data sync exception: {{reason}}' },
  'table.syncSourceGone': {
    zh_Hans: '源表已不存在或尚未发布',
    en: 'the source table no longer exists or is not published',
  },
  'table.syncChanged': {
    zh_Hans: '源表在查看差异后又有变化，请重新查看',
    en: 'the source changed since these differences were shown: look again',
  },
  'table.syncBroken': {
    zh_Hans: '删除不匹配的字段后表定义不再成立（{{detail}}）',
    en: 'without the mismatched fields the definition no longer holds ({{detail}})',
  },
  'table.notMapping': { zh_Hans: '此表不是映射表', en: 'This table is no mapping table' },
  'table.mappingSource': {
    zh_Hans: '映射表的源表须为本项目已发布的表',
    en: "A mapping table's source must be a published table of this project",
  },
} as const;

export type TableFunctionMessageKey = keyof typeof TABLE_FUNCTION_MESSAGES;
