import {
  LIST_FIELD_OPERATORS,
  LIST_LOGICAL_OPERATORS,
  PROJECT_HEADER,
  RECORD_QUERY_KEYS,
  TABLE_API_BASE,
  TABLE_RECORD_CALLS,
} from '@gantry/shared';
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import i18n from '../../../../i18n';
import { renderPage } from '../../../../test/utils';
import { newField } from '../draft';
import { definitionOf } from '../testFixtures';
import TableInterface from './TableInterface';

const DEFINITION = definitionOf([
  { ...newField('text', 'name', 'Name'), required: true },
  newField('number', 'depth', 'Depth'),
]);

describe('TableInterface', () => {
  it('shows every call, query key and operator the server has, the fields and an example with an API token', async () => {
    for (const language of ['zh_Hans', 'en'] as const) {
      await i18n.changeLanguage(language);
      const { unmount } = renderPage(<TableInterface projectId="plant1" tableId="t1" definition={DEFINITION} />);
      // Every call from the list the server registers its routes from (table-interface.routes.test.ts).
      for (const call of TABLE_RECORD_CALLS) {
        expect(screen.getByTestId(`api-call-${call.key}`).textContent).toBe(call.path.replace(':id', 't1'));
      }
      for (const key of RECORD_QUERY_KEYS) expect(screen.getByTestId(`api-query-${key}`).textContent).not.toBe('');
      for (const op of LIST_FIELD_OPERATORS) {
        const text = screen.getByTestId(`api-op-${op}`).textContent ?? '';
        expect(text).not.toBe('');
        expect(text).not.toContain('tableApi.');
      }
      for (const op of LIST_LOGICAL_OPERATORS) expect(screen.getByTestId(`api-logical-${op}`).textContent).not.toBe('');
      expect(screen.getByTestId('api-field-name')).toBeTruthy();
      expect(screen.getByTestId('api-field-depth')).toBeTruthy();
      const example = screen.getByTestId('api-example').textContent ?? '';
      expect(example).toContain('Authorization: Bearer gty_');
      expect(example).toContain(`${PROJECT_HEADER}: plant1`);
      expect(example).toContain(`${TABLE_API_BASE}/tables/t1/records?query=`);
      expect(example).toContain('{"name":"text","depth":1}');
      expect(screen.getByTestId('table-interface').textContent).not.toContain('tableApi.');
      unmount();
    }
    await i18n.changeLanguage('zh_Hans');
  });
});
