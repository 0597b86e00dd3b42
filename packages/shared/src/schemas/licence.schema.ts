import { z } from 'zod';
import { grantView, measureValues } from '../licence.js';

/**
 * The licence calls (docs/API.md, "Licence"). Paths are under `/portal/rest/`:
 *  GET  license/info            → licenceInfo (administrator; 404 licenceMissing when none)
 *  GET  license/machine         → machineView (administrator)
 *  POST license/verify          multipart `file` → licenceCheck (nothing is changed)
 *  POST license/upload          multipart `file` → licenceCheck of what was applied
 *  GET  core/license/machineInfo?query=   → machineInfoRow[] (right log.view; `count` header with withCount)
 *  GET  core/license/machineInfo/count    → {count}
 *  GET  core/license/machineInfo/{id}     → machineInfoRow
 *  GET  core/license/machineInfo/export?query=  → text/csv (right log.export)
 */

/** Why the installed licence does or does not grant anything now. */
export const LICENCE_STATES = ['valid', 'expired', 'notYetValid', 'otherMachine', 'untrusted'] as const;
export const licenceState = z.enum(LICENCE_STATES);
export type LicenceState = z.infer<typeof licenceState>;

/** This machine's identity (console.md §3 "Licence history": the Windows and the other field set). */
export const machineFields = z.object({
  platform: z.enum(['windows', 'other']),
  cpuId: z.string(),
  /** Other systems: the system (or OS) UUID and the BIOS as vendor/version/date. */
  uuid: z.string().nullable(),
  biosAddr: z.string().nullable(),
  /** Windows: board and BIOS serials, BIOS version, the MAC address. */
  baseBoardSerialNumber: z.string().nullable(),
  biosSerialNumber: z.string().nullable(),
  biosVersion: z.string().nullable(),
  macAddress: z.string().nullable(),
});
export type MachineFields = z.infer<typeof machineFields>;

export const machineView = z.object({ machineCode: z.string(), machine: machineFields });
export type MachineView = z.infer<typeof machineView>;

/** What a licence file says, as shown before and after applying it. */
export const licenceSummary = z.object({
  licenceId: z.string(),
  product: z.string(),
  machineCode: z.string(),
  issuedAt: z.string(),
  licensee: z.string().nullable(),
  keyId: z.string(),
  /** Signed with the development key pair (never accepted in production). */
  development: z.boolean(),
  grant: grantView,
});
export type LicenceSummary = z.infer<typeof licenceSummary>;

export const licenceInfo = licenceSummary.extend({
  id: z.literal('platform-spm'),
  state: licenceState,
  /** The reason in the caller's language when `state` is not 'valid'. */
  reason: z.string().nullable(),
  /** Days left, 0 once ended; `reminder` when the licence is valid and fewer than LICENCE_REMINDER_DAYS remain. */
  remainingDays: z.number().int(),
  reminder: z.boolean(),
  allocated: measureValues,
  used: measureValues,
  installedAt: z.string(),
});
export type LicenceInfo = z.infer<typeof licenceInfo>;

/** What applying a licence changes compared with the installed one (only what differs; endTime exclusive). */
export const licenceChanges = z.object({
  /** No licence was installed before. */
  first: z.boolean(),
  measures: z.array(z.object({ path: z.string(), before: z.number().nullable(), after: z.number().nullable() })),
  period: z.array(
    z.object({
      field: z.enum(['startTime', 'endTime', 'validityPeriod']),
      before: z.union([z.string(), z.number()]).nullable(),
      after: z.union([z.string(), z.number()]),
    }),
  ),
  featuresAdded: z.array(z.string()),
  featuresRemoved: z.array(z.string()),
});
export type LicenceChanges = z.infer<typeof licenceChanges>;

/** POST license/verify and license/upload: the file's summary and what it changes. */
export const licenceCheck = z.object({ licence: licenceSummary, changes: licenceChanges, applied: z.boolean() });
export type LicenceCheck = z.infer<typeof licenceCheck>;

/** One row of the licence history: an applied licence with the machine it was applied on. */
export const machineInfoRow = machineFields.extend({
  id: z.string(),
  /** When the licence was applied. */
  time: z.string(),
  machineCode: z.string(),
  licenceId: z.string(),
  product: z.string(),
  keyId: z.string(),
  issuedAt: z.string(),
  licensee: z.string().nullable(),
  startTime: z.string(),
  /** Exclusive, like every grant end: the first day no longer covered (start + validityPeriod). */
  endTime: z.string(),
  validityPeriod: z.number(),
  userCount: z.number(),
  features: z.array(z.string()),
  appliedBy: z.string(),
});
export type MachineInfoRow = z.infer<typeof machineInfoRow>;

/** Rights beyond the administrator/tenant split (console.md §3: log.view, log.export). */
export const RIGHTS = ['log.view', 'log.export'] as const;
export type Right = (typeof RIGHTS)[number];
