import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { PAGES } from '../routes';
import { APP_ROOT, appChildPath, HOME_PATH, PATHS, pathTo } from './paths';

const SRC = path.resolve(import.meta.dirname, '..');
const ROUTES_MODULE = path.join(SRC, 'routes.tsx');
const PATHS_MODULE = path.join(SRC, 'app', 'paths.ts');

/** The TypeScript files under a folder. */
function typescriptFiles(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => path.join(dir, file));
}

/** The console's source files: tests left out (they state the addresses a user sees, as written). */
const isTest = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith(path.join(SRC, 'test') + path.sep);

/** Every module a file imports (static, dynamic, type-only, re-exports), resolved when relative. */
function importedModules(file: string): string[] {
  const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
  return info.importedFiles
    .map((imported) => imported.fileName)
    .filter((name) => name.startsWith('.'))
    .map((name) => path.resolve(path.dirname(file), name));
}

const isRoutesModule = (resolved: string) => resolved === ROUTES_MODULE || `${resolved}.tsx` === ROUTES_MODULE;

/** `'./x'` in `import … from './x'`, `export … from './x'`, `import('./x')`. */
function isModuleSpecifier(node: ts.Node): boolean {
  const parent = node.parent;
  return (
    ((ts.isImportDeclaration(parent) || ts.isExportDeclaration(parent)) && parent.moduleSpecifier === node) ||
    (ts.isCallExpression(parent) && parent.expression.kind === ts.SyntaxKind.ImportKeyword) ||
    (ts.isLiteralTypeNode(parent) && ts.isImportTypeNode(parent.parent))
  );
}

/** The text of every string, template and JSX text piece of a file, module names left out. */
function literals(file: string): string[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (
      (ts.isStringLiteralLike(node) && !isModuleSpecifier(node)) ||
      ts.isTemplateHead(node) ||
      ts.isTemplateMiddle(node) ||
      ts.isTemplateTail(node) ||
      ts.isJsxText(node)
    ) {
      found.push(node.text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe('the route map (app/paths.ts)', () => {
  it('gives every page of routes.tsx its path, and has no path without a page', () => {
    expect(Object.fromEntries(Object.entries(PAGES).map(([name, page]) => [name, page.path]))).toEqual(PATHS);
    expect(new Set(Object.values(PATHS)).size).toBe(Object.keys(PATHS).length);
    for (const value of Object.values(PATHS)) expect(value.startsWith(`${APP_ROOT}/`)).toBe(true);
    expect(HOME_PATH).toBe('/app/dashboard');
  });

  it('builds concrete paths: parameters and query values encoded, undefined query values left out', () => {
    expect(pathTo('projects')).toBe('/app/model/Project/list');
    expect(pathTo('projectEdit', { id: 'p 1/x' })).toBe('/app/model/Project/p%201%2Fx/edit');
    expect(pathTo('tenantProjects', { id: 't1' }, { name: 'A & B' })).toBe(
      '/app/model/User/t1/project?name=A%20%26%20B',
    );
    expect(pathTo('dbBackup', { projectId: 'p1', tab: 'cycles' })).toBe('/app/db-backup?projectId=p1&tab=cycles');
    expect(pathTo('backup', { projectId: 'p1', action: undefined })).toBe('/app/backup?projectId=p1');
    expect(pathTo('projectAdd', { type: 'heat' })).toBe('/app/model/Project/add?type=heat');
  });

  it('gives the /app route its children relative to it', () => {
    expect(appChildPath(PATHS.projectDetail)).toBe('model/Project/:id/detail');
    expect(appChildPath('/login')).toBe('/login');
  });

  it('no file under pages/ imports routes.tsx (which imports every page)', () => {
    const pages = typescriptFiles(path.join(SRC, 'pages'));
    expect(pages.length).toBeGreaterThan(50);
    const offenders = pages.filter((file) => importedModules(file).some(isRoutesModule));
    expect(offenders.map((file) => path.relative(SRC, file))).toEqual([]);
  });

  it('no /app path is typed by hand outside the route map', () => {
    const files = typescriptFiles(SRC).filter((file) => !isTest(file) && file !== PATHS_MODULE);
    expect(files.length).toBeGreaterThan(100);
    const offenders = files.flatMap((file) =>
      literals(file)
        .filter((text) => text === APP_ROOT || text.includes(`${APP_ROOT}/`))
        .map((text) => `${path.relative(SRC, file)}: ${JSON.stringify(text)}`),
    );
    expect(offenders).toEqual([]);
  });
});
