import { languageProblems } from '@gantry/shared';
import { describe, expect, it } from 'vitest';
import { BACK_OFFICE_SCRIPT } from './back-office-script.js';
import { BACK_OFFICE_TEXTS } from './back-office-texts.js';

describe('the back office speaks one language at a time', () => {
  it('has every word in both languages, each in its own script', () => {
    expect(Object.keys(BACK_OFFICE_TEXTS.en).length).toBeGreaterThan(30);
    expect(languageProblems(BACK_OFFICE_TEXTS)).toEqual([]);
  });

  it('its script carries both tables and no sentence of its own', () => {
    expect(BACK_OFFICE_SCRIPT).toContain(JSON.stringify(BACK_OFFICE_TEXTS));
    const outsideTexts = BACK_OFFICE_SCRIPT.replace(JSON.stringify(BACK_OFFICE_TEXTS), '');
    expect(outsideTexts).not.toMatch(/[\u3400-\u9fff]/);
  });
});
