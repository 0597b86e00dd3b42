import { type BackupItem, ERRORS, type Language, type RestoreRule, TaskState, translate } from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import type { ArchiveReader } from '../../lib/archive/archive-reader.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import { type TaskContext, TaskError } from '../tasks/task.engine.js';
import type { BackupRepository } from './backup.repository.js';
import { type Manifest, readStructure, verifyEntries } from './backup-archive.js';
import {
  applyRestore,
  elapsed,
  type FileKind,
  type RestoreJournals,
  type RestoreSteps,
  restoreRoute,
} from './backup-restore.js';

/** An archive problem in words, for a task's message (`The backup file is not valid: …`). */
export const problemText = (problem: ArchiveProblem, language: Language) =>
  translate('backup.archiveInvalid', language, {
    problem: translate(problem.messageKey, language, problem.params),
  });

/** What a restoring feature decides once the archive is verified: the modules' rules, the file kinds, its record's own fields. */
export interface ArchivePlan {
  rules: Record<string, RestoreRule>;
  kinds: FileKind[];
  /** The restore record's fields that differ between features (its commit is the journal's mark). */
  record: { name: string; item: BackupItem; bytes: number; restoreFile: string | null };
}

export interface ArchiveRestoreDeps {
  repo: BackupRepository;
  store: FileStore;
  journals: RestoreJournals;
  clock: Clock;
}

export interface ArchiveRestore {
  projectId: string;
  /** The task's language: its failures are worded in it. */
  language: Language;
  /** The share of the task's progress the verification takes: [from, to]. */
  verify: [number, number];
  /** What to restore of the verified archive (may refuse it with a `TaskError`). */
  plan(manifest: Manifest): ArchivePlan;
  /** Work between the verification and the restore (a safety backup), with the progress up to `until`. */
  before?: { until: number; run(plan: ArchivePlan, steps: RestoreSteps): Promise<void> };
}

/**
 * The one restore of an archive into a project, under project backups, database backups and
 * template installs: the archive verified whole (design D6), the feature's plan, what must come
 * first, then the restore with its journal. An archive problem becomes the task's failure, worded
 * in the task's language. Answers the manifest and the documents written per module.
 */
export async function restoreArchive(
  context: TaskContext,
  reader: ArchiveReader,
  restore: ArchiveRestore,
  deps: ArchiveRestoreDeps,
): Promise<{ manifest: Manifest; written: Record<string, number> }> {
  const { task } = context;
  const phase = (from: number, to: number): RestoreSteps => ({
    progress: (fraction) => context.progress(from + (to - from) * fraction),
    checkpoint: () => context.checkpoint(),
    log: (line) => context.log(line),
  });
  const failure = (error: unknown): never => {
    if (error instanceof ArchiveProblem) throw new TaskError(problemText(error, restore.language));
    // The table gate refused the result (more tables than the grant): the task says so, in its language.
    if (error instanceof AppError && error.code === 'tablesOverGrant')
      throw new TaskError(translate(ERRORS[error.code].message, restore.language, error.options.params));
    throw error;
  };
  const [from, to] = restore.verify;
  const verifying = performance.now();
  const structure = await readStructure(reader).catch(failure);
  const { manifest } = structure;
  const plan = restore.plan(manifest);
  const route = await restoreRoute(deps.repo, restore.projectId, plan.rules, manifest);
  // Checked as they load (nothing is visible before the swap), unless work comes between.
  const leaveModules = route === 'partition-checked-while-loading' && !restore.before ? Object.keys(plan.rules) : [];
  await verifyEntries(reader, structure, {
    onProgress: phase(from, to).progress,
    checkpoint: () => context.checkpoint(),
    leaveModules: new Set(leaveModules),
  }).catch(failure);
  context.log(
    `archive verified (${reader.entries.length} entries${leaveModules.length > 0 ? ', the data modules as they load' : ''}) in ${elapsed(verifying)}`,
  );
  let applyFrom = to;
  if (restore.before) {
    await restore.before.run(plan, phase(to, restore.before.until));
    applyFrom = restore.before.until;
  }
  const now = deps.clock();
  const written = await applyRestore(
    reader,
    manifest,
    {
      id: task.id,
      projectId: restore.projectId,
      rules: plan.rules,
      kinds: plan.kinds,
      route,
      record: {
        ...plan.record,
        id: task.id,
        projectId: restore.projectId,
        type: 'import',
        status: TaskState.Succeeded,
        moduleRules: plan.rules,
        excludedDirs: [],
        documents: {},
        file: null,
        sourceProjectId: manifest.project.id,
        safety: false,
        taskId: task.id,
        createTime: now,
        updateTime: now,
      },
    },
    deps,
    phase(applyFrom, 1),
  ).catch(failure);
  return { manifest, written };
}
