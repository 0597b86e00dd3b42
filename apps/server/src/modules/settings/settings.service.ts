import {
  DEFAULT_SETTINGS,
  normalizeSettings,
  PUBLIC_SETTING_KEYS,
  type PublicSettings,
  type Settings,
  type SettingsPatch,
  settingsSchema,
} from '@gantry/shared';
import type { SettingsRepository } from './settings.repository.js';

/** How long a process trusts its cached copy; other processes' writes show within this. */
const CACHE_MS = 1_000;

export class SettingsService {
  private cache: { value: Settings; at: number; publicJson?: string } | undefined;

  constructor(private readonly repository: SettingsRepository) {}

  async get(): Promise<Settings> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.value;
    const stored = await this.repository.read();
    // Fields added by later versions take their defaults.
    const parsed = settingsSchema.safeParse({ ...DEFAULT_SETTINGS, ...(stored as object | undefined) });
    const value = parsed.success ? normalizeSettings(parsed.data) : DEFAULT_SETTINGS;
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

  async replace(input: Settings): Promise<Settings> {
    const value = normalizeSettings(input);
    await this.repository.write(value);
    this.cache = { value, at: Date.now() };
    return value;
  }

  async patch(patch: SettingsPatch): Promise<Settings> {
    this.cache = undefined;
    const current = await this.get();
    return this.replace({ ...current, ...patch });
  }
}
