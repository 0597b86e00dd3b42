import { type ExtensionField, widgetType } from '@gantry/shared';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A project's extension value as text for the detail page and the list: a selector's labels, yes/no,
 * lists joined, a link's or file's name; '-' when empty.
 */
export function extensionText(field: ExtensionField, value: unknown, yesNo: (value: boolean) => string): string {
  if (value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0)) return '-';
  const { type } = widgetType(field);
  if (type === 'select' || type === 'multiSelect') {
    const choices = Array.isArray(field.options.options) ? field.options.options.filter(isRecord) : [];
    const label = (v: unknown) => {
      const choice = choices.find((c) => c.value === v);
      return String((choice?.label || choice?.value) ?? v);
    };
    return Array.isArray(value) ? value.map(label).join('、') : label(value);
  }
  if (typeof value === 'boolean') return yesNo(value);
  if (field.kind === 'password') return '******';
  if (Array.isArray(value)) return value.map((item) => itemText(item)).join('、');
  return itemText(value);
}

function itemText(value: unknown): string {
  if (isRecord(value)) {
    const named = value.name ?? value.title ?? value.text ?? value.url;
    return typeof named === 'string' ? named : JSON.stringify(value);
  }
  return String(value);
}
