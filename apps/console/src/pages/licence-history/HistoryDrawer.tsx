import type { MachineInfoRow } from '@gantry/shared';
import { Descriptions, Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { useHistoryRow } from '../../services/licenceHistory';
import { type HistoryField, LICENCE_FIELDS, MACHINE_FIELDS } from './fields';
import { fieldLabel, fieldValue } from './fieldValue';

function Section({ row, fields, title }: { row: MachineInfoRow; fields: readonly HistoryField[]; title: string }) {
  return (
    <Descriptions title={title} bordered size="small" column={1} style={{ marginBottom: 24 }}>
      {fields.map((field) => (
        <Descriptions.Item key={field} label={fieldLabel(field)}>
          <span data-testid={`history-detail-${field}`}>{fieldValue(row, field)}</span>
        </Descriptions.Item>
      ))}
    </Descriptions>
  );
}

/** One history row (GET machineInfo/{id}): the machine's field set for its platform, then the licence. */
export function HistoryDrawer({ row, onClose }: { row: MachineInfoRow | null; onClose: () => void }) {
  const { t } = useTranslation();
  const detail = useHistoryRow(row);
  const shown = detail.data ?? row;
  return (
    <Drawer
      open={row !== null}
      onClose={onClose}
      size={520}
      title={t('licence.history.detail')}
      data-testid="history-drawer"
    >
      {shown ? (
        <div data-testid="history-detail" data-platform={shown.platform}>
          <Section
            row={shown}
            fields={MACHINE_FIELDS[shown.platform]}
            title={`${t('licence.history.machine')} · ${t(`licence.platform.${shown.platform}`)}`}
          />
          <Section row={shown} fields={LICENCE_FIELDS} title={t('licence.history.licence')} />
        </div>
      ) : null}
    </Drawer>
  );
}
