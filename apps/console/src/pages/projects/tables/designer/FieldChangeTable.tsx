import { type TableColumnsType, Tag } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../../components/ScrollTable';
import type { FieldChange } from '../../../../services/tables';
import { dynamicText } from '../texts';

/** What a publish difference and a mapping table's sync step both list of a field. */
type ChangeRow = Pick<FieldChange, 'field' | 'title' | 'from' | 'to'> & { change: FieldChange['change'] };

const CHANGE_COLOURS: Record<FieldChange['change'], string> = {
  added: 'green',
  removed: 'red',
  typeChanged: 'orange',
  optionsChanged: 'blue',
};

/** A change dialog's width: at most `max`, within a narrow window. */
export const changeDialogWidth = (max: number) =>
  Math.min(max, typeof window === 'undefined' ? max : window.innerWidth - 16);

/**
 * The fields a change touches, each with its change and its type (old → new when retyped), then the
 * caller's own columns: the publish difference (issue 16 §2) and a mapping table's sync step.
 */
export function FieldChangeTable<T extends ChangeRow>({
  changes,
  testIdPrefix,
  scrollX,
  columns,
  emptyText,
}: {
  changes: T[];
  /** Each change cell's test id is this followed by the field's name. */
  testIdPrefix: string;
  scrollX: number;
  columns: TableColumnsType<T>;
  emptyText?: ReactNode;
}) {
  const { t } = useTranslation();
  const typeName = (type: string | undefined) => (type ? dynamicText(t, `designer.type.${type}`, type) : '');
  return (
    <ScrollTable<T>
      rowKey="field"
      size="small"
      pagination={false}
      scroll={{ x: scrollX }}
      dataSource={changes}
      locale={emptyText === undefined ? undefined : { emptyText }}
      columns={[
        {
          title: t('designer.rule.field'),
          key: 'field',
          render: (_: unknown, change) => `${change.title} (${change.field})`,
        },
        {
          title: t('tables.ui.change'),
          key: 'change',
          render: (_: unknown, change) => (
            <span data-testid={`${testIdPrefix}${change.field}`}>
              <Tag color={CHANGE_COLOURS[change.change]}>{t(`tables.ui.change.${change.change}`)}</Tag>
              {change.change === 'typeChanged'
                ? `${typeName(change.from)} → ${typeName(change.to)}`
                : typeName(change.to ?? change.from)}
            </span>
          ),
        },
        ...columns,
      ]}
    />
  );
}
