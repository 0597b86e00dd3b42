import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import i18n from '../../i18n';
import { AUDIT_ACTIONS, actionText } from './labels';

const SERVER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../server/src');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

/** Every action id the server writes to the audit log: the `action:` strings of `audit.record(` calls. */
function auditActionsWritten(): string[] {
  const actions = new Set<string>();
  for (const file of sources(SERVER)) {
    const text = readFileSync(file, 'utf8');
    for (const call of text.split(/audit\.record\(/).slice(1)) {
      // the event object of this call: up to the call's end
      const event = call.slice(0, call.indexOf(');') + 1);
      for (const match of event.matchAll(/'([a-z]+\.[a-zA-Z]+)'/g)) if (match[1]) actions.add(match[1]);
    }
  }
  return [...actions].sort();
}

describe('audit action labels (issue 10)', () => {
  it('every action of the shared list (the server’s audit events are typed with it) has words in both languages', async () => {
    for (const language of ['zh_Hans', 'en']) {
      await i18n.changeLanguage(language);
      const raw = AUDIT_ACTIONS.filter((action) => actionText(action) === action || actionText(action).includes('.'));
      expect({ language, raw }).toEqual({ language, raw: [] });
    }
  });

  it('every action the server records has words in both languages', async () => {
    const written = auditActionsWritten();
    // the scan finds the server's calls (tenant, project and licence actions)
    expect(written).toEqual(expect.arrayContaining(['licence.apply', 'project.create', 'tenant.password']));
    expect(written.filter((action) => !(AUDIT_ACTIONS as readonly string[]).includes(action))).toEqual([]);
    for (const language of ['zh_Hans', 'en']) {
      await i18n.changeLanguage(language);
      const raw = written.filter((action) => actionText(action) === action || actionText(action).includes('.'));
      expect({ language, raw }).toEqual({ language, raw: [] });
    }
  });

  it('shows words for licence.apply', async () => {
    await i18n.changeLanguage('zh_Hans');
    expect(actionText('licence.apply')).toBe('导入平台授权');
    await i18n.changeLanguage('en');
    expect(actionText('licence.apply')).toBe('Apply platform licence');
  });
});
