import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  BACKUP_MESSAGES,
  FIELD_MESSAGES,
  languageProblems,
  MEDIA_MESSAGES,
  messagesFor,
  TABLE_FUNCTION_MESSAGES,
} from '@gantry/shared';
import { describe, expect, it } from 'vitest';
import { translation as enBundle } from './en.bundle';
import { translation as zhBundle } from './zh_Hans.bundle';

/**
 * One language at a time (issue 32): every text of the console, those loaded with every route and
 * those a screen adds (`<screen>.zh_Hans.ts` / `<screen>.en.ts`), in both languages, each in its
 * own script (no Chinese and no full-width colon in English), with the same params.
 */
type Texts = Record<string, string>;
const modules = import.meta.glob<Record<string, unknown>>('./*.{zh_Hans,en}.ts', { eager: true });

function textsOf(module: Record<string, unknown>): Texts {
  const texts: Texts = {};
  for (const value of Object.values(module)) {
    if (value && typeof value === 'object') Object.assign(texts, value);
  }
  return texts;
}

function screenTexts(): { zh_Hans: Texts; en: Texts } {
  const zh_Hans: Texts = {};
  const en: Texts = {};
  for (const [file, module] of Object.entries(modules)) {
    if (file.includes('.bundle.')) continue;
    Object.assign(file.endsWith('.zh_Hans.ts') ? zh_Hans : en, textsOf(module));
  }
  return { zh_Hans, en };
}

/** Texts a screen's tables share with the server, loaded by that screen. */
const SCREEN_MESSAGES = { ...BACKUP_MESSAGES, ...MEDIA_MESSAGES, ...FIELD_MESSAGES, ...TABLE_FUNCTION_MESSAGES };

/** Names that read the same in both languages: products, and each language's own name in the picker. */
const SAME_IN_BOTH = new Set([
  'app.defaultName',
  'language.zh_Hans',
  'language.en',
  'tenant.logo',
  'grant.feature.sdk',
  'grant.feature.kafka',
  'licence.field.cpuId',
  'licence.field.uuid',
  'licence.platform.windows',
]);

describe('console texts, one language at a time', () => {
  it('every screen file has its counterpart in the other language', () => {
    const files = Object.keys(modules).filter((file) => !file.includes('.bundle.'));
    const unpaired = files.filter((file) => {
      const other = file.endsWith('.zh_Hans.ts')
        ? file.replace('.zh_Hans.ts', '.en.ts')
        : file.replace('.en.ts', '.zh_Hans.ts');
      return !files.includes(other);
    });
    expect(files.length).toBeGreaterThan(10);
    expect(unpaired).toEqual([]);
  });

  it('every text is in both languages, each in its own script, with the same params', () => {
    const screens = screenTexts();
    const tables = {
      zh_Hans: { ...zhBundle, ...screens.zh_Hans, ...messagesFor('zh_Hans', SCREEN_MESSAGES) },
      en: { ...enBundle, ...screens.en, ...messagesFor('en', SCREEN_MESSAGES) },
    };
    expect(Object.keys(tables.en).length).toBeGreaterThan(500);
    // console.md gives these Chinese texts verbatim; the English also names the limit.
    const fixedWording = new Set(['grant.exceedsParent', 'grant.endAfterParent']);
    expect(languageProblems(tables, { sameInBoth: SAME_IN_BOTH, fixedWording })).toEqual([]);
  });

  it("no screen writes a full-width colon itself: it comes with the text, in the language's form", () => {
    const src = path.resolve(import.meta.dirname, '..');
    const written = readdirSync(src, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file) && !file.startsWith(`i18n${path.sep}`))
      .filter((file) => readFileSync(path.join(src, file), 'utf8').includes('：'));
    expect(written).toEqual([]);
    expect(enBundle['common.labelValue']).toBe('{{label}}: {{value}}');
  });
});
