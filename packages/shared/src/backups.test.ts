import { describe, expect, it } from 'vitest';
import {
  BACKUP_LIMITS,
  BACKUP_UPLOAD_NAME,
  defaultBackupName,
  linkModules,
  toWholeMb,
  uploadRecordName,
} from './backups.js';
import { backupExportSchema, backupImportSchema } from './schemas/backup.schema.js';
import { RestoreRule } from './states.js';

describe('selection links (§4)', () => {
  it('brings user and role with the data group, setting with table records, and the linked dashboard modules', () => {
    expect(linkModules(['dept'])).toEqual(['dept', 'user', 'role']);
    expect(linkModules(['table_record'])).toEqual(['table_record', 'user', 'role', 'setting']);
    expect(linkModules(['dataset_view'])).toEqual(['data_interface', 'dataset', 'dataset_view']);
    expect(linkModules(['dataset'])).toEqual(['data_interface', 'dataset']);
    expect(linkModules(['site'])).toEqual(['dashboard', 'catalog', 'site', 'component']);
    expect(linkModules(['rule', 'nonsense'])).toEqual(['rule']);
  });
});

describe('backup names', () => {
  it('joins the project name and the timestamp, shortening the name to keep the 30 characters', () => {
    const at = new Date(2026, 10, 23, 4, 5, 6);
    expect(defaultBackupName('Plant', at)).toBe('Plant_2026-11-23 04:05:06');
    const long = defaultBackupName('北京供热站监控项目的一个很长的名字', at);
    expect([...long].length).toBe(BACKUP_LIMITS.nameMax);
    expect(long.endsWith('_2026-11-23 04:05:06')).toBe(true);
  });
  it('names an uploaded file by the §5 rule, whatever its own name (a downloaded backup uploads back)', () => {
    const downloaded = `${defaultBackupName('一号工厂', new Date(2026, 10, 28, 20, 50, 56)).replaceAll(':', '_')}.zip`;
    expect(downloaded).toBe('一号工厂_2026-11-28 20_50_56.zip');
    expect(uploadRecordName(downloaded)).toBe('一号工厂_2026_11_28_20_50_56');
    expect(uploadRecordName('C:\\Users\\op\\plant backup (2).ZIP')).toBe('plant_backup_2');
    expect(uploadRecordName('../../etc/passwd.zip')).toBe('passwd');
    expect(uploadRecordName('!!!.zip')).toBe('');
    const long = uploadRecordName(`${'長'.repeat(40)}.zip`);
    expect([...long].length).toBe(BACKUP_LIMITS.nameMax);
    for (const name of [downloaded, 'a-b c.zip', 'x.y_z.zip'])
      expect(BACKUP_UPLOAD_NAME.test(uploadRecordName(name))).toBe(true);
  });
  it('rounds sizes to whole MB', () => {
    expect(toWholeMb(0)).toBe(0);
    expect(toWholeMb(1.6 * 1024 * 1024)).toBe(2);
  });
});

describe('the export and import queries', () => {
  it('takes item as an object, a list or JSON text, and the modules from moduleRules or mongoItem', () => {
    const a = backupExportSchema.parse({
      name: 'x',
      item: '{"fileServer":true,"mongodb":true}',
      moduleRules: { rule: 0 },
    });
    expect(a.item).toEqual({ fileServer: true, html: false, mongodb: true });
    expect(a.modules).toEqual(['rule']);
    const b = backupExportSchema.parse({ name: 'x', item: ['mongodb'], mongoItem: '["user","role"]' });
    expect(b.modules).toEqual(['user', 'role']);
    expect(b.excludedDirs).toEqual([]);
  });
  it('names each refusal with the spec message key', () => {
    const issues = (value: unknown) =>
      backupExportSchema.safeParse(value).error?.issues.map((issue) => issue.message) ?? [];
    expect(issues({ name: 'x', item: { fileServer: false } })).toEqual(['backup.contentEmpty']);
    expect(issues({ name: 'x', item: { mongodb: true } })).toEqual(['backup.modulesRequired']);
    expect(issues({ name: '', item: ['html'] })).toEqual(['backup.nameRequired']);
    expect(issues({ name: 'x'.repeat(31), item: ['html'] })).toEqual(['backup.nameTooLong']);
    expect(issues({ name: 'x', item: ['mongodb'], moduleRules: { bogus: 0 } })[0]).toBe('backup.moduleUnknown');
  });
  it('gives every module of mongoItem the itemType rule, and needs a rule with mongodb', () => {
    const q = backupImportSchema.parse({ id: 'b1', item: ['mongodb'], mongoItem: ['rule', 'cron'], itemType: 2 });
    expect(q.rules).toEqual({ rule: RestoreRule.Replace, cron: RestoreRule.Replace });
    const explicit = backupImportSchema.parse({ id: 'b1', item: ['mongodb'], moduleRules: { rule: 1 } });
    expect(explicit.rules).toEqual({ rule: RestoreRule.Keep });
    const missing = backupImportSchema.safeParse({ id: 'b1', item: ['mongodb'] });
    expect(missing.error?.issues[0]?.message).toBe('backup.ruleRequired');
    const badRule = backupImportSchema.safeParse({ id: 'b1', item: ['mongodb'], moduleRules: { rule: 3 } });
    expect(badRule.error?.issues[0]?.message).toBe('backup.ruleRequired');
  });
});
