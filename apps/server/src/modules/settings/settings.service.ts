import {
  DEFAULT_SETTINGS,
  isRecord,
  normalizeSettings,
  PUBLIC_SETTING_KEYS,
  type PublicSettings,
  type Settings,
  type SettingsPatch,
  settingsSchema,
} from '@gantry/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { InvalidationBus } from '../../lib/invalidation-bus.js';
import { checkExpandFormulas } from '../projects/project-expand.js';
import type { SettingsRepository } from './settings.repository.js';

/**
 * How long a process trusts its cached copy. Changes are announced on the invalidation bus and show
 * at once in every process; this bounds what a missed announcement (or a hand edit) can cost.
 */
const CACHE_MS = 5_000;

/**
 * The stored document, field by field: a field missing (added by a later version) or no longer
 * valid (an older version's value, a hand edit) takes its default; the others are kept.
 */
export function readStored(stored: unknown, warn: (fields: string[]) => void): Settings {
  const source = isRecord(stored) ? stored : {};
  const merged: Record<string, unknown> = {};
  const invalid: string[] = [];
  for (const key of Object.keys(DEFAULT_SETTINGS) as Array<keyof Settings>) {
    const field = settingsSchema.shape[key];
    const parsed = key in source ? field.safeParse(source[key]) : undefined;
    if (parsed?.success) merged[key] = parsed.data;
    else {
      if (key in source) invalid.push(key);
      merged[key] = DEFAULT_SETTINGS[key];
    }
  }
  if (invalid.length) warn(invalid);
  return normalizeSettings(merged as Settings);
}

const publicPart = (all: Settings): PublicSettings =>
  Object.fromEntries(PUBLIC_SETTING_KEYS.map((key) => [key, all[key]])) as PublicSettings;

export class SettingsService {
  private cache: { value: Settings; at: number; publicJson?: string } | undefined;
  /** Bumped by every invalidation: a read that a change overtook is not cached. */
  private generation = 0;

  constructor(
    private readonly repository: SettingsRepository,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
    bus?: InvalidationBus,
  ) {
    bus?.subscribe((change) => {
      if (change.kind === 'settings' || change.kind === 'all') this.forget();
    });
  }

  /** Drops the cached copy: the next read asks the database. */
  forget(): void {
    this.generation++;
    this.cache = undefined;
  }

  private readonly warnInvalid = (fields: string[]) =>
    this.log.warn({ fields }, 'stored settings fields are not valid; their defaults are used');

  async get(): Promise<Settings> {
    if (this.cache && performance.now() - this.cache.at < CACHE_MS) return this.cache.value;
    const generation = this.generation;
    const value = readStored(await this.repository.read(), this.warnInvalid);
    if (generation === this.generation) this.cache = { value, at: performance.now() };
    return value;
  }

  async getPublic(): Promise<PublicSettings> {
    return publicPart(await this.get());
  }

  /** The public part as JSON text when the cached copy is fresh, without waiting on anything. */
  cachedPublicJson(): string | undefined {
    const cache = this.cache;
    if (!cache || performance.now() - cache.at >= CACHE_MS) return undefined;
    cache.publicJson ??= JSON.stringify(publicPart(cache.value));
    return cache.publicJson;
  }

  /** The public part as JSON text, kept with the cache: the login page asks for it on every visit. */
  async getPublicJson(): Promise<string> {
    const value = await this.get();
    const cache = this.cache;
    // Kept only with the copy it was made from (a change may have replaced or dropped it meanwhile).
    if (cache?.value !== value) return JSON.stringify(publicPart(value));
    cache.publicJson ??= JSON.stringify(publicPart(value));
    return cache.publicJson;
  }

  async replace(input: Settings): Promise<Settings> {
    await checkExpandFormulas(input.projectExpand);
    return this.save(() => input);
  }

  /** Replaces the top-level fields given; the rest are as stored at the moment of writing. */
  async patch(patch: SettingsPatch): Promise<Settings> {
    if (patch.projectExpand) await checkExpandFormulas(patch.projectExpand);
    return this.save((current) => ({ ...current, ...patch }));
  }

  private async save(change: (current: Settings) => Settings): Promise<Settings> {
    const value = await this.repository.modify((stored) =>
      normalizeSettings(change(readStored(stored, this.warnInvalid))),
    );
    // Committed. Not cached: two saves at once may finish in either order, and the one that committed
    // first could otherwise overwrite the newer copy; the next read asks the database.
    this.generation++;
    this.cache = undefined;
    return value;
  }
}
