import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, normalizeSettings, settingsPatchSchema, settingsSchema } from './settings.schema.js';

const messageAt = (input: unknown, path: string) => {
  const result = settingsSchema.safeParse(input);
  if (result.success) return undefined;
  return result.error.issues.find((issue) => issue.path.join('.') === path)?.message;
};

describe('settings validation', () => {
  it('accepts the defaults: no freeze limit, 1-minute freeze, Chinese', () => {
    expect(settingsSchema.parse(DEFAULT_SETTINGS)).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS.errorLogin).toEqual({ count: null, duration: { count: 1, unit: 'm', interval: 60 } });
    expect(DEFAULT_SETTINGS.language).toBe('zh_Hans');
  });

  it('requires a name that is not blank', () => {
    expect(messageAt({ ...DEFAULT_SETTINGS, name: '  ' }, 'name')).toBe('settings.nameRequired');
    expect(messageAt({ ...DEFAULT_SETTINGS, name: undefined }, 'name')).toBe('settings.nameRequired');
  });

  it('allows an error count of 0 or empty but not below', () => {
    const withCount = (count: unknown) => ({
      ...DEFAULT_SETTINGS,
      errorLogin: { ...DEFAULT_SETTINGS.errorLogin, count },
    });
    expect(settingsSchema.safeParse(withCount(0)).success).toBe(true);
    expect(settingsSchema.safeParse(withCount(null)).success).toBe(true);
    expect(messageAt(withCount(-1), 'errorLogin.count')).toBe('settings.countMin0');
  });

  it('requires durations of at least 1 in their own units', () => {
    const bad = { ...DEFAULT_SETTINGS, loginDuration: { count: 0, unit: 'm' } };
    expect(messageAt(bad, 'loginDuration.count')).toBe('settings.countMin1');
    expect(settingsSchema.safeParse({ ...DEFAULT_SETTINGS, retentionPolicy: { count: 1, unit: 'h' } }).success).toBe(
      false,
    );
  });

  it('normalises: 0 = no limit, 10-minute floor, seconds derived, permissions cleared when off', () => {
    const out = normalizeSettings({
      ...DEFAULT_SETTINGS,
      errorLogin: { count: 0, duration: { count: 1, unit: 'd' } },
      loginDuration: { count: 9, unit: 'm' },
      retentionPolicy: { count: 1, unit: 'w' },
      mediaLibrary: { publicDirEnable: false, publicDirFeature: ['upload'] },
    });
    expect(out.errorLogin).toEqual({ count: null, duration: { count: 1, unit: 'd', interval: 86_400 } });
    expect(out.loginDuration).toEqual({ count: 10, unit: 'm', time: 600 });
    expect(out.retentionPolicy.time).toBe(7 * 86_400);
    expect(out.mediaLibrary.publicDirFeature).toEqual([]);
  });

  it('lets a patch carry any subset', () => {
    expect(settingsPatchSchema.safeParse({ enableCors: true }).success).toBe(true);
    expect(settingsPatchSchema.safeParse({ enableCors: 'yes' }).success).toBe(false);
  });
});

describe('help address (issue 10)', () => {
  it('defaults to the shipped guide, also when a PUT leaves it out', () => {
    expect(DEFAULT_SETTINGS.helpUrl).toBe('/guide/');
    const { helpUrl: _left, ...withoutHelp } = DEFAULT_SETTINGS;
    expect(settingsSchema.parse(withoutHelp).helpUrl).toBe('/guide/');
  });

  it('takes a path on this server or an http(s) address', () => {
    for (const url of ['/guide/', '/docs/help.html', 'https://help.example.com/gantry', 'http://intranet/help']) {
      expect(messageAt({ ...DEFAULT_SETTINGS, helpUrl: url }, 'helpUrl')).toBeUndefined();
    }
  });

  it('refuses other schemes, addresses of other hosts without a scheme, blanks and markup', () => {
    for (const url of [
      '',
      'javascript:alert(1)',
      '//evil.example.com/',
      '/\\evil.example.com',
      'guide',
      'https://a b',
      '/"x"',
    ]) {
      expect(messageAt({ ...DEFAULT_SETTINGS, helpUrl: url }, 'helpUrl')).toBe('settings.helpUrl');
    }
  });
});
