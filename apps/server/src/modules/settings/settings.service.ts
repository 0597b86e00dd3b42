import {
  DEFAULT_SETTINGS,
  normalizeSettings,
  PUBLIC_SETTING_KEYS,
  type PublicSettings,
  type Settings,
  type SettingsPatch,
  settingsSchema,
} from '@gantry/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { SettingsRepository } from './settings.repository.js';

/** How long a process trusts its cached copy; other processes' writes show within this. */
const CACHE_MS = 1_000;

/**
 * The stored document, field by field: a field missing (added by a later version) or no longer
 * valid (an older version's value, a hand edit) takes its default; the others are kept.
 */
export function readStored(stored: unknown, warn: (fields: string[]) => void): Settings {
  const source = (stored && typeof stored === 'object' ? stored : {}) as Record<string, unknown>;
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

export class SettingsService {
  private cache: { value: Settings; at: number; publicJson?: string } | undefined;

  constructor(
    private readonly repository: SettingsRepository,
    private readonly log: Pick<FastifyBaseLogger, 'warn'>,
  ) {}

  private readonly warnInvalid = (fields: string[]) =>
    this.log.warn({ fields }, 'stored settings fields are not valid; their defaults are used');

  async get(): Promise<Settings> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.value;
    const value = readStored(await this.repository.read(), this.warnInvalid);
    this.cache = { value, at: Date.now() };
    return value;
  }

  async getPublic(): Promise<PublicSettings> {
    const all = await this.get();
    return Object.fromEntries(PUBLIC_SETTING_KEYS.map((key) => [key, all[key]])) as PublicSettings;
  }

  /** The public part as JSON text, kept with the cache: the login page asks for it on every visit. */
  async getPublicJson(): Promise<string> {
    const publicPart = await this.getPublic();
    const cache = this.cache!;
    cache.publicJson ??= JSON.stringify(publicPart);
    return cache.publicJson;
  }

  replace(input: Settings): Promise<Settings> {
    return this.save(() => input);
  }

  /** Replaces the top-level fields given; the rest are as stored at the moment of writing. */
  patch(patch: SettingsPatch): Promise<Settings> {
    return this.save((current) => ({ ...current, ...patch }));
  }

  private async save(change: (current: Settings) => Settings): Promise<Settings> {
    const value = await this.repository.modify((stored) =>
      normalizeSettings(change(readStored(stored, this.warnInvalid))),
    );
    this.cache = { value, at: Date.now() };
    return value;
  }
}
