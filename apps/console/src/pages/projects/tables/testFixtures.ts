import { type TableDefinition, tableDefinition } from '@gantry/shared';
import type { FieldChange } from '../../../services/tables';

/** Test data for the table pages (imported by tests only): a definition with these fields and defaults otherwise. */
export const definitionOf = (fields: unknown[]): TableDefinition => tableDefinition.parse({ fields });

/** A publish difference's change of `depth` from text to number: of its `values`, `converted` kept, the rest dropped. */
export const depthRetyped = (values: number, converted: number): FieldChange => ({
  field: 'depth',
  title: 'Depth',
  change: 'typeChanged',
  from: 'text',
  to: 'number',
  values,
  converted,
  dropped: values - converted,
});
