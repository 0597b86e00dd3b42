import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * The `as` casts of the source (server, console, shared; tests and test helpers left out), counted
 * with the TypeScript parser. A cast tells the compiler to trust us: stored documents are read through
 * typed mappers at the repository edge, inputs through zod (docs/DECISIONS.md, "Structure"). The count
 * may only go down: lower MAX_CASTS when you remove some.
 */
const MAX_CASTS = 149;

const REPOSITORY = path.resolve(import.meta.dirname, '../../../..');
const ROOTS = ['apps/server/src', 'apps/console/src', 'packages/shared/src'];

interface Cast {
  at: string;
  text: string;
  /** `x as unknown as T`: a cast that ignores every type. */
  double: boolean;
}

function sourceFiles(folder: string): string[] {
  return readdirSync(path.join(REPOSITORY, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$|\.d\.ts$/.test(file))
    .filter((file) => !file.split(path.sep).includes('test'))
    .map((file) => path.join(folder, file));
}

/** The casts of one source text (`as const` is no cast). */
export function castsOf(file: string, text: string): Cast[] {
  const source = ts.createSourceFile(
    file,
    text,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Cast[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isAsExpression(node) && node.type.getText(source) !== 'const') {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      const inner = node.expression;
      found.push({
        at: `${file}:${line + 1}`,
        text: node.getText(source).replace(/\s+/g, ' ').slice(0, 120),
        double: ts.isAsExpression(inner) && inner.type.kind === ts.SyntaxKind.UnknownKeyword,
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('casts in the source', () => {
  it('are counted: `as const` is none, `as unknown as T` is two and a double', () => {
    const casts = castsOf(
      'a.ts',
      'const a = [1] as const; const b = a as unknown as string; const c = <T,>(x: T) => x;',
    );
    expect(casts.map((cast) => cast.text)).toEqual(['a as unknown as string', 'a as unknown']);
    expect(casts.filter((cast) => cast.double)).toHaveLength(1);
    expect(castsOf('a.tsx', 'const e = <div>{x as number}</div>;')).toHaveLength(1);
  });

  const casts = ROOTS.flatMap(sourceFiles).flatMap((file) =>
    castsOf(file, readFileSync(path.join(REPOSITORY, file), 'utf8')),
  );

  it('none is `as unknown as`', () => {
    expect(casts.filter((cast) => cast.double).map((cast) => `${cast.at} ${cast.text}`)).toEqual([]);
  });

  it(`at most ${MAX_CASTS} in all`, () => {
    expect(casts.length).toBeGreaterThan(0);
    expect(casts.length).toBeLessThanOrEqual(MAX_CASTS);
  });
});
