import type { MachineInfoRow } from '@gantry/shared';
import { Space, Tag } from 'antd';
import type { ReactNode } from 'react';
import { lastDay } from '../../components/GrantSummary';
import i18n, { translateMessage } from '../../i18n';
import { formatDateTime } from '../../utils/dateTime';
import type { HistoryField } from './fields';

export function fieldLabel(field: HistoryField): string {
  return translateMessage(`licence.field.${field}`);
}

/** One field of a history row as shown: instants in local time, the end as the last covered day. */
export function fieldValue(row: MachineInfoRow, field: HistoryField): ReactNode {
  switch (field) {
    case 'time':
    case 'issuedAt':
      return formatDateTime(row[field]);
    case 'endTime':
      return lastDay({ endTime: row.endTime });
    case 'platform':
      return i18n.t(`licence.platform.${row.platform}`);
    case 'features':
      return row.features.length === 0 ? (
        '-'
      ) : (
        <Space size={[4, 4]} wrap>
          {row.features.map((key) => (
            <Tag key={key}>{translateMessage(`grant.feature.${key}`)}</Tag>
          ))}
        </Space>
      );
    default: {
      const value = row[field];
      return value === null || value === '' ? '-' : String(value);
    }
  }
}
