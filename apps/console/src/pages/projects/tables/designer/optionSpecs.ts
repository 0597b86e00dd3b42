import { FIELD_REGISTRY, type FieldType, isRecord } from '@gantry/shared';

/**
 * The designer's option inputs read off the registry's options schema (zod): one input per key, its
 * kind from the schema's type (a switch, a number with its bounds, text, a choice of the enum's values,
 * a list of words), so a new option in the registry shows in the designer without a change here.
 */
export type OptionInput =
  | { kind: 'boolean' }
  | { kind: 'number'; min?: number; max?: number; integer: boolean }
  | { kind: 'text'; long: boolean }
  | { kind: 'choice'; values: Array<string | number> }
  | { kind: 'words' }
  | { kind: 'choiceList' }
  | { kind: 'fields' }
  | { kind: 'choiceDefault'; multiple: boolean };

export interface OptionSpec {
  key: string;
  optional: boolean;
  input: OptionInput;
}

interface Def {
  type: string;
  innerType?: Node;
  shape?: Record<string, Node>;
  entries?: Record<string, string>;
  values?: unknown[];
  options?: Node[];
  element?: Node;
  checks?: Array<{ _zod: { def: { check: string; value?: unknown; format?: string } } }>;
}
interface Node {
  _zod: { def: Def };
}

/** A zod schema as this file reads it: its `_zod.def` with a string `type` (zod 4's internal shape). */
function isNode(value: unknown): value is Node {
  return isRecord(value) && isRecord(value._zod) && isRecord(value._zod.def) && typeof value._zod.def.type === 'string';
}

const WRAPPERS = new Set(['optional', 'default', 'prefault', 'nullable']);

function unwrap(node: Node): { def: Def; optional: boolean } {
  let current = node;
  let optional = false;
  while (WRAPPERS.has(current._zod.def.type) && current._zod.def.innerType) {
    if (current._zod.def.type === 'optional') optional = true;
    current = current._zod.def.innerType;
  }
  return { def: current._zod.def, optional };
}

function numberInput(def: Def): OptionInput {
  const input: { kind: 'number'; min?: number; max?: number; integer: boolean } = { kind: 'number', integer: false };
  for (const check of def.checks ?? []) {
    const { check: kind, value, format } = check._zod.def;
    if (kind === 'number_format' && format !== undefined && /int/.test(format)) input.integer = true;
    if (kind === 'greater_than' && typeof value === 'number') input.min = value;
    if (kind === 'less_than' && typeof value === 'number') input.max = value;
  }
  return input;
}

function inputOf(type: FieldType, key: string, def: Def): OptionInput | undefined {
  if ((type === 'select' || type === 'multiSelect') && key === 'options') return { kind: 'choiceList' };
  if ((type === 'select' || type === 'multiSelect') && key === 'default')
    return { kind: 'choiceDefault', multiple: type === 'multiSelect' };
  if (type === 'subTable' && key === 'fields') return { kind: 'fields' };
  switch (def.type) {
    case 'boolean':
      return { kind: 'boolean' };
    case 'number':
      return numberInput(def);
    case 'string':
      return { kind: 'text', long: key === 'expression' || key === 'default' };
    case 'enum':
      return { kind: 'choice', values: Object.values(def.entries ?? {}) };
    case 'union': {
      const values = (def.options ?? []).flatMap((option) => option._zod.def.values ?? []);
      const choices = values.filter((value) => typeof value === 'string' || typeof value === 'number');
      return choices.length === values.length ? { kind: 'choice', values: choices } : undefined;
    }
    case 'array':
      return def.element?._zod.def.type === 'string' ? { kind: 'words' } : undefined;
    default:
      return undefined;
  }
}

const cache = new Map<FieldType, OptionSpec[]>();

/** The option inputs of a field type, in the schema's order. */
export function optionSpecs(type: FieldType): OptionSpec[] {
  const known = cache.get(type);
  if (known) return known;
  const options: unknown = FIELD_REGISTRY[type].options;
  if (!isNode(options)) return [];
  const root = unwrap(options).def;
  const specs: OptionSpec[] = [];
  for (const [key, node] of Object.entries(root.shape ?? {})) {
    const { def, optional } = unwrap(node);
    const input = inputOf(type, key, def);
    if (input) specs.push({ key, optional, input });
  }
  cache.set(type, specs);
  return specs;
}
