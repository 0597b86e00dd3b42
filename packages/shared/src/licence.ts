import { z } from 'zod';
import type { MessageKey } from './all-messages.js';
import { isCalendarDate, VALIDITY_MAX_DAYS } from './grant.js';
import { LICENCE_COUNT_MAX, LICENCE_TABLE_COUNT_MAX } from './validations.js';

/**
 * The zod schemas of licence grants. The rules themselves (measures, dates, the parent checks) are in
 * grant.ts, which imports no zod: the console's layout and list pages use them without loading zod
 * (apps/console/weight/budgets.ts). Both are exported from here.
 */
export * from './grant.js';

/** A required part left out gets the spec's 'please check available licence' (console.md §5). */
const orMissing = (key: MessageKey) => (issue: { input?: unknown }) =>
  issue.input === undefined ? 'grant.missing' : key;

const count = (max: number) =>
  z
    .number({ error: orMissing('grant.invalidCount') })
    .int({ error: 'grant.invalidCount' })
    .min(1, { error: 'grant.invalidCount' })
    .max(max, { error: 'grant.invalidCount' });
const optionalCount = (max: number) => count(max).nullish();

export const grantSchema = z.object(
  {
    validityPeriod: count(VALIDITY_MAX_DAYS),
    startTime: z
      .string({ error: orMissing('grant.invalidDate') })
      .refine(isCalendarDate, { error: 'grant.invalidDate' }),
    userCount: count(LICENCE_COUNT_MAX),
    flow: z.object(
      { tableCount: count(LICENCE_TABLE_COUNT_MAX), flowCount: optionalCount(LICENCE_COUNT_MAX) },
      { error: 'grant.missing' },
    ),
    dataGathering: z
      .object({
        point: optionalCount(LICENCE_COUNT_MAX),
        calcPoint: optionalCount(LICENCE_COUNT_MAX),
        deviceCount: optionalCount(LICENCE_COUNT_MAX),
      })
      .optional(),
    visual: z.object({ dashboardCount: optionalCount(LICENCE_COUNT_MAX) }).optional(),
    eventCount: optionalCount(LICENCE_COUNT_MAX),
    eventHandlerCount: optionalCount(LICENCE_COUNT_MAX),
    reportCount: optionalCount(LICENCE_COUNT_MAX),
    dataAnalysisLinkCount: optionalCount(LICENCE_COUNT_MAX),
    features: z.array(z.string().max(64)).max(64).default([]),
  },
  { error: 'grant.missing' },
);
export type Grant = z.infer<typeof grantSchema>;
export type GrantInput = z.input<typeof grantSchema>;

/** A grant as answered: with the days left from today and the (exclusive) end date. */
export const grantView = grantSchema.extend({ remainingTime: z.number().int(), endTime: z.string() });
export type GrantView = z.infer<typeof grantView>;

/** Used, allocated or available amounts by measure path. */
export const measureValues = z.record(z.string(), z.number());
