import type { Language } from './validations.js';

/**
 * The rules every text of both sides follows, one language at a time (issue 32): each key in both
 * languages, the same `{{params}}` in both, no Chinese (or full-width punctuation such as '：') in
 * the English text, and Chinese in the Chinese text. The tests of the shared messages and of the
 * console's texts apply them.
 */
const HAN_OR_FULL_WIDTH = /[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]/;
const HAN = /[\u3400-\u9fff]/;

function paramsOf(text: string): string {
  return [...text.matchAll(/\{\{(\w+)\}\}/g)]
    .map((match) => match[1])
    .sort()
    .filter((name, index, all) => all.indexOf(name) === index)
    .join(',');
}

/**
 * The problems of two languages' tables of texts, one line each. `sameInBoth` lists the names that
 * read the same in both languages (product names, a language's own name in the language picker),
 * whose script is not checked while both texts are equal; `fixedWording`
 * the keys whose Chinese wording the spec gives verbatim, so the English may name more params.
 */
export function languageProblems(
  tables: Record<Language, Record<string, string>>,
  options: { sameInBoth?: ReadonlySet<string>; fixedWording?: ReadonlySet<string> } = {},
): string[] {
  const problems: string[] = [];
  const zh = tables.zh_Hans;
  const en = tables.en;
  for (const key of Object.keys(zh)) if (!Object.hasOwn(en, key)) problems.push(`${key}: missing in en`);
  for (const key of Object.keys(en)) if (!Object.hasOwn(zh, key)) problems.push(`${key}: missing in zh_Hans`);
  for (const [key, english] of Object.entries(en)) {
    const chinese = zh[key];
    if (chinese === undefined) continue;
    if (english.trim() === '') problems.push(`${key}: empty in en`);
    if (chinese.trim() === '') problems.push(`${key}: empty in zh_Hans`);
    const name = english === chinese && options.sameInBoth?.has(key);
    if (HAN_OR_FULL_WIDTH.test(english) && !name) problems.push(`${key}: Chinese or full-width text in en: ${english}`);
    const words = chinese.replace(/\{\{\w+\}\}/g, '');
    if (!HAN.test(words) && !name && /[a-z]{3,}/i.test(words)) {
      problems.push(`${key}: no Chinese in zh_Hans: ${chinese}`);
    }
    if (paramsOf(english) !== paramsOf(chinese) && !options.fixedWording?.has(key)) {
      problems.push(`${key}: params differ (en ${paramsOf(english)}; zh_Hans ${paramsOf(chinese)})`);
    }
  }
  return problems;
}
