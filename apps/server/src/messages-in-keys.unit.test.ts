import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * One language at a time (issue 32): what the server says to a user (an error, a task's outcome)
 * goes through a message key (packages/shared/src/*messages.ts), never a sentence in the code. The
 * English details for the server log may stay (`detail`, `context.log`, `log.*`).
 */
const ROOT = path.join(import.meta.dirname);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') && !name.endsWith('.test.ts') ? [full] : [];
  });
}

/** A sentence in quotes: a word, a space, a word (or a `${value}`). */
const SENTENCE = String.raw`[\`'"][A-Za-z]+ [a-z$]`;
const RULES: Array<{ rule: string; pattern: RegExp; only?: RegExp }> = [
  { rule: "a task failure's text", pattern: /new TaskError\(\s*[`'"]/ },
  { rule: 'a message in words', pattern: new RegExp(String.raw`\bmessage:\s*${SENTENCE}`) },
  { rule: 'an answer in words', pattern: new RegExp(String.raw`\.send\(\s*${SENTENCE}`) },
  // A task's work answers its outcome: in files that register task work, no sentence is returned.
  { rule: "a task's outcome in words", pattern: new RegExp(String.raw`\breturn\s+${SENTENCE}`), only: /TaskHandler/ },
];

function findings(files: Array<{ name: string; text: string }>): string[] {
  const found: string[] = [];
  for (const { name, text } of files) {
    const lines = text.split('\n');
    for (const { rule, pattern, only } of RULES) {
      if (only && !only.test(text)) continue;
      lines.forEach((line, index) => {
        if (pattern.test(line)) found.push(`${name}:${index + 1} ${rule}: ${line.trim()}`);
      });
    }
  }
  return found;
}

describe('server messages go through message keys', () => {
  it('no user-visible sentence is written in the server code', () => {
    const files = sources(ROOT).map((file) => ({ name: path.relative(ROOT, file), text: readFileSync(file, 'utf8') }));
    expect(files.length).toBeGreaterThan(100);
    expect(findings(files)).toEqual([]);
  });

  it('finds the sentences it looks for', () => {
    const handler = [
      'const run: TaskHandler<P> = async () => {',
      '  context.log(`removed ${removed}`);',
      '  return `removed ${removed} data records`;',
      '};',
    ].join('\n');
    const other = "throw new TaskError('the disk is full');\nreturn { message: 'paused before it started' };";
    expect(
      findings([
        { name: 'a.ts', text: handler },
        { name: 'b.ts', text: other },
      ]),
    ).toEqual([
      "a.ts:3 a task's outcome in words: return `removed ${removed} data records`;",
      "b.ts:1 a task failure's text: throw new TaskError('the disk is full');",
      "b.ts:2 a message in words: return { message: 'paused before it started' };",
    ]);
  });
});
