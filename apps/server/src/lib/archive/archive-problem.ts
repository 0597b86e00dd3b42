import type { MessageKey } from '@gantry/shared';

/** Why an archive is refused: a message `backup.problem.<problem>` with its parameters. */
export type ArchiveProblemKind =
  | 'notZip'
  | 'manifestMissing'
  | 'manifestInvalid'
  | 'version'
  | 'unsafePath'
  | 'symlink'
  | 'unlisted'
  | 'missing'
  | 'size'
  | 'hash'
  | 'tooManyEntries'
  | 'tooLarge'
  | 'ratio'
  | 'unknownModule'
  | 'badDocument'
  | 'duplicate'
  | 'encrypted'
  | 'truncated'
  | 'overlap'
  | 'mismatch'
  | 'bomb'
  | 'noSpace';

export class ArchiveProblem extends Error {
  constructor(
    readonly problem: ArchiveProblemKind,
    readonly params: Record<string, string | number> = {},
  ) {
    super(`${problem} ${JSON.stringify(params)}`);
  }
  get messageKey(): MessageKey {
    return `backup.problem.${this.problem}` as MessageKey;
  }
}

/** A wrong verification code (not an archive problem: the archive may be fine). */
export class WrongPassword extends Error {}
