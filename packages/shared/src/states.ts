/**
 * One name for each state and rule of tasks, jobs, backup records and restores (issue 30). The
 * server and the console speak these names; the spec's wire values that differ (a project backup
 * record's `succeed`, the restore rules 0, 1, 2) are mapped only where a call is answered or sent:
 * the request and response schemas, the presenters, the list queries' fields.
 */

/** A task's state (backups-data-designer.md §3 "Background task", "Job": the values are the spec's). */
export const TaskState = {
  Ongoing: 'ongoing',
  Paused: 'pause',
  Succeeded: 'success',
  Failed: 'failed',
} as const;
export type TaskState = (typeof TaskState)[keyof typeof TaskState];
/** How a task ended (or stopped, to be resumed). */
export type TaskOutcome = Exclude<TaskState, typeof TaskState.Ongoing>;

/** A job as polled (a dump or database restore; a periodic cycle's last run): running until it ends. */
export const JobState = { Running: 'running', Succeeded: TaskState.Succeeded, Failed: TaskState.Failed } as const;
export type JobState = (typeof JobState)[keyof typeof JobState];

/** A job's state from its task's: a paused job has stopped (the poller stops; its log says it paused). */
export function jobStateOf(task: TaskState): JobState {
  if (task === TaskState.Ongoing) return JobState.Running;
  return task === TaskState.Succeeded ? JobState.Succeeded : JobState.Failed;
}

/**
 * The platform restore of a server process (`GET platform-backup/status`, our own call: the values
 * are what it answers).
 */
export const PlatformRestoreState = {
  Idle: 'idle',
  Restoring: 'restoring',
  Succeeded: 'succeeded',
  Failed: TaskState.Failed,
} as const;
export type PlatformRestoreState = (typeof PlatformRestoreState)[keyof typeof PlatformRestoreState];

/**
 * A backup or restore record's state: it is written only once its work succeeded. The project backup
 * calls answer it as `succeed` (§3 "Project backup record"), the database backup calls as `success`.
 */
export type RecordState = typeof TaskState.Succeeded;
export const BACKUP_RECORD_STATUS_WIRE = { [TaskState.Succeeded]: 'succeed' } as const satisfies Record<
  RecordState,
  string
>;

/**
 * How a restore treats a data module's documents: `Overwrite` the duplicates and add the rest, add
 * the rest and `Keep` the duplicates, `Replace` (clear the module, then add the archive's).
 */
export const RestoreRule = { Overwrite: 'overwrite', Keep: 'keep', Replace: 'replace' } as const;
export type RestoreRule = (typeof RestoreRule)[keyof typeof RestoreRule];
export const RESTORE_RULES = [RestoreRule.Overwrite, RestoreRule.Keep, RestoreRule.Replace] as const;

/** The spec's numbers for the rules (§5 "0 overwrite duplicates and add, 1 add without overwriting, 2 clear then add"). */
export const RESTORE_RULE_WIRE = {
  [RestoreRule.Overwrite]: 0,
  [RestoreRule.Keep]: 1,
  [RestoreRule.Replace]: 2,
} as const satisfies Record<RestoreRule, number>;
export type RestoreRuleWire = (typeof RESTORE_RULE_WIRE)[RestoreRule];
export const RESTORE_RULE_WIRES = RESTORE_RULES.map((rule) => RESTORE_RULE_WIRE[rule]);

/** The rule a wire number names. */
export function restoreRuleOf(wire: RestoreRuleWire): RestoreRule {
  return RESTORE_RULES[wire];
}

/** Module → rule from the numbers a call answers (a number it never answers: Overwrite, a backup's). */
export function rulesOfWire(rules: Readonly<Record<string, number>>): Record<string, RestoreRule> {
  return Object.fromEntries(
    Object.entries(rules).map(([module, wire]) => [
      module,
      RESTORE_RULES.find((rule) => RESTORE_RULE_WIRE[rule] === wire) ?? RestoreRule.Overwrite,
    ]),
  );
}

/** Module → rule as the calls answer and send it (numbers). */
export function rulesOnWire(rules: Readonly<Record<string, RestoreRule>>): Record<string, RestoreRuleWire> {
  return Object.fromEntries(Object.entries(rules).map(([module, rule]) => [module, RESTORE_RULE_WIRE[rule]]));
}
