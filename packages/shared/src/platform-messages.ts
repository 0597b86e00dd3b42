/** Messages of the whole-platform backup and restore (issue 13 §4), zh_Hans and en. */
export const PLATFORM_MESSAGES = {
  'platform.restoring': {
    zh_Hans: '平台正在从备份还原，请在还原结束后再试',
    en: 'The platform is being restored from a backup; try again when the restore has ended',
  },
  'platform.notFound': { zh_Hans: '平台备份不存在', en: 'No such platform backup' },
  'platform.tasksRunning': {
    zh_Hans: '有 {{count}} 个任务正在运行：请等它们结束或暂停后再还原',
    en: '{{count}} tasks are running: wait for them to end, or pause them, then restore',
  },
} as const satisfies Record<string, { zh_Hans: string; en: string }>;
