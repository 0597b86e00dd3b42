import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { AUDIT_ACTIONS, AUDIT_OBJECT_TYPES, actionText, objectTypeText } from './labels';

describe('audit action labels (issue 10)', () => {
  // The server's AuditEvent is typed with the shared AUDIT_ACTIONS: every action it records is listed.
  it('every action and object type the server records has words in both languages', async () => {
    for (const language of ['zh_Hans', 'en']) {
      await i18n.changeLanguage(language);
      const raw = AUDIT_ACTIONS.filter((action) => actionText(action) === action || actionText(action).includes('.'));
      const rawTypes = AUDIT_OBJECT_TYPES.filter((type) => objectTypeText(type) === type);
      expect({ language, raw, rawTypes }).toEqual({ language, raw: [], rawTypes: [] });
    }
    await i18n.changeLanguage('zh_Hans');
    expect(actionText('ftpSettings.update')).toBe('修改FTP存储设置');
    expect(actionText('dbBackupCycle.create')).toBe('新增周期备份');
  });

  it('shows words for licence.apply', async () => {
    await i18n.changeLanguage('zh_Hans');
    expect(actionText('licence.apply')).toBe('导入平台授权');
    await i18n.changeLanguage('en');
    expect(actionText('licence.apply')).toBe('Apply platform licence');
  });
});
