import { z } from 'zod';

/** A JSON value that may arrive as its text (an item or a list in a query string or a form). */
export const jsonText = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => {
    if (typeof value !== 'string') return value;
    try {
      return JSON.parse(value);
    } catch {
      return value;
    }
  }, schema);

/**
 * The chosen kinds of a backup's content: `{fileServer: true, …}` (the creation payload) or their list
 * (a form's `item` array). Kinds set to false are not chosen; at least one is needed.
 */
export const chosenKinds = <K extends string>(kinds: readonly [K, ...K[]]) =>
  jsonText(z.union([z.array(z.enum(kinds)), z.partialRecord(z.enum(kinds), z.boolean())]))
    .transform((item) => {
      const chosen: readonly string[] = Array.isArray(item)
        ? item
        : kinds.filter((kind) => (item as Partial<Record<K, boolean>>)[kind] === true);
      return Object.fromEntries(kinds.map((kind) => [kind, chosen.includes(kind)])) as Record<K, boolean>;
    })
    .refine((item) => Object.values(item).some(Boolean), { error: 'backup.contentEmpty' });
