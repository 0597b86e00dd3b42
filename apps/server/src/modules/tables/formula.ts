import type { FieldOptions } from '@gantry/shared';
import type { EvalFunction, MathJsInstance, MathNode } from 'mathjs';

/**
 * Formula fields (backups-data-designer.md §4a), evaluated by math.js: an expression parser and
 * evaluator of its own (no `eval`, no JavaScript reached from an expression). An expression sees the
 * record's values and nothing else: only the functions listed below, no assignments, function
 * definitions or ranges (which could loop or allocate without bound), and no symbol but the table's
 * fields and the constants pi and e.
 */
let loading: Promise<MathJsInstance> | undefined;

/**
 * math.js, loaded at the first formula: importing it takes about a second of the main thread, which
 * every server start (and every restart after a crash) paid before the first request when it was
 * imported with the module.
 */
function formulaEngine(): Promise<MathJsInstance> {
  loading ??= import('mathjs').then(({ all, create }) => create(all ?? {}, {}));
  return loading;
}

/** Functions a formula may call (text, numbers, logic, dates as numbers). */
const FUNCTIONS = new Set([
  'abs',
  'ceil',
  'floor',
  'round',
  'fix',
  'sqrt',
  'cbrt',
  'exp',
  'log',
  'log10',
  'log2',
  'pow',
  'mod',
  'sign',
  'min',
  'max',
  'sum',
  'mean',
  'median',
  'add',
  'subtract',
  'multiply',
  'divide',
  'equal',
  'unequal',
  'larger',
  'largerEq',
  'smaller',
  'smallerEq',
  'compare',
  'and',
  'or',
  'not',
  'xor',
  'concat',
  'string',
  'number',
  'boolean',
  'isNaN',
  'isZero',
  'size',
]);
const CONSTANTS = new Set(['pi', 'e']);
/** Node kinds a formula may hold. */
const NODES = new Set([
  'ConstantNode',
  'SymbolNode',
  'OperatorNode',
  'FunctionNode',
  'ParenthesisNode',
  'ConditionalNode',
  'ArrayNode',
  'AccessorNode',
  'IndexNode',
  'ObjectNode',
  'RelationalNode',
]);

export class FormulaError extends Error {}

export interface CompiledFormula {
  /** The table fields the expression reads. */
  fields: string[];
  evaluate: (record: Record<string, unknown>) => unknown;
  /** A non-scalar result (matrix, unit…) as text. */
  format: (value: unknown) => string;
}

/** Parses and checks an expression; `fields` are the table's field names. Throws FormulaError. */
export async function compileFormula(expression: string, fields: ReadonlySet<string>): Promise<CompiledFormula> {
  const math = await formulaEngine();
  let root: MathNode;
  try {
    root = math.parse(expression);
  } catch (error) {
    throw new FormulaError(error instanceof Error ? error.message : 'syntax error');
  }
  const used = new Set<string>();
  const calls = new Set<MathNode>();
  root.traverse((node) => {
    if (!NODES.has(node.type)) throw new FormulaError(`${node.type.replace(/Node$/, '').toLowerCase()} is not allowed`);
    // A text constant with U+0000 ("\u0000" in the expression): its results could not be stored.
    if (math.isConstantNode(node) && String(node.value).includes('\u0000')) throw new FormulaNul();
    if (math.isFunctionNode(node)) {
      if (!math.isSymbolNode(node.fn) || !FUNCTIONS.has(node.fn.name))
        throw new FormulaError(`function ${math.isSymbolNode(node.fn) ? node.fn.name : '?'} is not allowed`);
      calls.add(node.fn);
    }
  });
  root.traverse((node) => {
    if (!math.isSymbolNode(node) || calls.has(node) || CONSTANTS.has(node.name)) return;
    if (!fields.has(node.name)) throw new FormulaField(node.name);
    used.add(node.name);
  });
  let compiled: EvalFunction;
  try {
    compiled = root.compile();
  } catch (error) {
    throw new FormulaError(error instanceof Error ? error.message : 'cannot compile');
  }
  const names = [...used];
  return {
    fields: names,
    evaluate: (record) => {
      const scope = new Map<string, unknown>();
      for (const name of names) scope.set(name, record[name] ?? null);
      return compiled.evaluate(scope);
    },
    format: (value) => math.format(value as never, { precision: 14 }),
  };
}

/**
 * The message of formula field `field` when it cannot compile (the designer's and the extension
 * schema's): undefined for an error that is not about the formula.
 */
export function formulaProblem(
  error: unknown,
  field: string,
):
  | { key: 'table.formulaField'; params: { name: string } }
  | { key: 'table.formulaNul'; params: { name: string } }
  | { key: 'table.formula'; params: { reason: string } }
  | undefined {
  if (error instanceof FormulaField) return { key: 'table.formulaField', params: { name: error.field } };
  if (error instanceof FormulaNul) return { key: 'table.formulaNul', params: { name: field } };
  if (error instanceof FormulaError) return { key: 'table.formula', params: { reason: error.message.slice(0, 200) } };
  return undefined;
}

/** A formula names a field the table does not have. */
export class FormulaField extends FormulaError {
  constructor(readonly field: string) {
    super(`unknown field ${field}`);
  }
}

/**
 * A formula whose text holds U+0000 (PostgreSQL stores no such character): refused when it is
 * compiled, and a result that holds one is never stored (`formulaValue` throws it).
 */
export class FormulaNul extends FormulaError {
  constructor() {
    super('a text with U+0000');
  }
}

/**
 * The stored value of a formula's result, by its result type; null when it fails or does not fit.
 * Throws FormulaNul for a text result holding U+0000.
 */
export function formulaValue(
  formula: CompiledFormula,
  options: FieldOptions<'formula'>,
  record: Record<string, unknown>,
) {
  let result: unknown;
  try {
    result = formula.evaluate(record);
  } catch {
    return null;
  }
  if (options.result === 'number') {
    if (typeof result !== 'number' || !Number.isFinite(result)) return null;
    return options.decimals === undefined ? result : Number(result.toFixed(options.decimals));
  }
  if (options.result === 'boolean') return typeof result === 'boolean' ? result : null;
  if (result === null || result === undefined) return null;
  const text = typeof result === 'string' ? result : formula.format(result);
  if (text.includes('\u0000')) throw new FormulaNul();
  return text.slice(0, 10_000);
}
