import { z } from 'zod';
import { BACKUP_KINDS, BACKUP_LIMITS, BACKUP_TYPES } from '../backups.js';
import { COLLECTIONS, isCollection } from '../data-modules.js';
import { MEDIA_LIMITS } from '../media.js';
import { BACKUP_RECORD_STATUS_WIRE, RESTORE_RULE_WIRE, type RestoreRule, restoreRuleOf, TaskState } from '../states.js';
import { chosenKinds, jsonText } from './chosen-kinds.js';

/** The chosen content kinds (the creation payload's map, or the form's `item` array). */
export const backupItemSchema = chosenKinds(BACKUP_KINDS);
export type BackupItem = Record<(typeof BACKUP_KINDS)[number], boolean>;

const collectionSchema = z.enum(COLLECTIONS as [string, ...string[]], { error: 'backup.moduleUnknown' });
/** A map keyed by data module (zod's enum-keyed record would ask for every module). */
const moduleMap = <T extends z.ZodType>(value: T) =>
  z.record(z.string(), value).refine((map) => Object.keys(map).every(isCollection), { error: 'backup.moduleUnknown' });
/** A rule as the calls send it (0, 1, 2), read as its name. */
const ruleSchema = z
  .union(
    [z.literal(RESTORE_RULE_WIRE.overwrite), z.literal(RESTORE_RULE_WIRE.keep), z.literal(RESTORE_RULE_WIRE.replace)],
    { error: 'backup.ruleRequired' },
  )
  .transform(restoreRuleOf);

const nameSchema = z
  .string({ error: 'backup.nameRequired' })
  .trim()
  .min(1, { error: 'backup.nameRequired' })
  .max(BACKUP_LIMITS.nameMax, { error: 'backup.nameTooLong' });

const excludedDirsSchema = jsonText(
  z.array(z.string().max(MEDIA_LIMITS.pathMax)).max(BACKUP_LIMITS.excludedDirsMax),
).default([]);

/**
 * `GET proxy/core/backup/export?query=` (§7): name, item, the data modules (`moduleRules`: a map whose
 * keys are the chosen modules, or `mongoItem`: their list) and the media folders left out.
 */
export const backupExportSchema = z
  .object({
    name: nameSchema,
    item: backupItemSchema,
    moduleRules: jsonText(moduleMap(z.unknown())).optional(),
    mongoItem: jsonText(z.array(collectionSchema)).optional(),
    excludedDirs: excludedDirsSchema,
    requestId: z.string().max(64).optional(),
  })
  .transform(({ moduleRules, mongoItem, ...rest }) => ({
    ...rest,
    modules: [...new Set([...Object.keys(moduleRules ?? {}), ...(mongoItem ?? [])])],
  }))
  .refine((query) => !query.item.mongodb || query.modules.length > 0, {
    error: 'backup.modulesRequired',
    path: ['moduleRules'],
  });
export type BackupExportQuery = z.infer<typeof backupExportSchema>;

/**
 * `GET proxy/core/backup/import?query=` (§7): which backup (`id`), the parts, and per data module its
 * rule (or `itemType`, one rule for every module of `mongoItem`); `name` names the restore record.
 */
export const backupImportSchema = z
  .object({
    id: z.string().min(1).max(64),
    name: nameSchema.optional(),
    item: backupItemSchema,
    moduleRules: jsonText(moduleMap(ruleSchema)).optional(),
    mongoItem: jsonText(z.array(collectionSchema)).optional(),
    itemType: jsonText(ruleSchema).optional(),
    requestId: z.string().max(64).optional(),
  })
  .transform(({ moduleRules, mongoItem, itemType, ...rest }) => {
    const rules: Record<string, RestoreRule> = { ...moduleRules };
    if (itemType !== undefined) for (const module of mongoItem ?? []) rules[module] ??= itemType;
    return { ...rest, rules };
  })
  .refine((query) => !query.item.mongodb || Object.keys(query.rules).length > 0, {
    error: 'backup.ruleRequired',
    path: ['moduleRules'],
  });
export type BackupImportQuery = z.infer<typeof backupImportSchema>;

export const backupRenameSchema = z.object({ name: nameSchema });

/** A backup or restore record as every call answers it (§3 "Project backup record"). */
export const backupView = z.object({
  id: z.string(),
  projectId: z.string(),
  name: z.string(),
  type: z.enum(BACKUP_TYPES),
  status: z.literal(BACKUP_RECORD_STATUS_WIRE[TaskState.Succeeded]),
  item: z.object({ fileServer: z.boolean(), html: z.boolean(), mongodb: z.boolean() }),
  /** Export: the modules it holds (each 0). Import: the rule (0, 1, 2) each module was restored with. */
  moduleRules: z.record(z.string(), z.number()),
  excludedDirs: z.array(z.string()),
  /** Documents per module the archive holds (export) or restored (import). */
  documents: z.record(z.string(), z.number()),
  /** Whole MB (§9); `bytes` exact. */
  size: z.number(),
  bytes: z.number(),
  /** Export: its archive's file name. Import: the backup it restored from (`restoreFile`). */
  file: z.string().nullable(),
  restoreFile: z.string().nullable(),
  /** The project the archive was made from (another one when a project is moved). */
  sourceProjectId: z.string(),
  /** Taken by the server just before a restore, so that the restore can be undone. */
  safety: z.boolean(),
  createTime: z.string(),
  updateTime: z.string(),
});
export type BackupView = z.infer<typeof backupView>;

/** `GET proxy/core/backup/getSizeAndTime`: per kind, whole MB (and bytes), and a rough time. */
export const backupSizeView = z.array(
  z.object({
    name: z.enum(BACKUP_KINDS),
    size: z.number(),
    bytes: z.number(),
    /** Documents (mongodb) or files (fileServer, html). */
    count: z.number(),
  }),
);
export type BackupSizeView = z.infer<typeof backupSizeView>;

/** What a task start answers: the task's id and the request id its progress is keyed by. */
export const backupStartView = z.object({ id: z.string(), requestId: z.string() });

/** The dry run of a restore: what would change, per module and per file kind, before confirming. */
export const restorePlanView = z.object({
  modules: z.array(
    z.object({
      module: z.string(),
      rule: z.number(),
      added: z.number(),
      overwritten: z.number(),
      kept: z.number(),
      deleted: z.number(),
    }),
  ),
  files: z.array(
    z.object({
      kind: z.enum(['fileServer', 'html']),
      added: z.number(),
      replaced: z.number(),
      removed: z.number(),
    }),
  ),
});
export type RestorePlan = z.infer<typeof restorePlanView>;
