import { DownloadOutlined } from '@ant-design/icons';
import type { MachineInfoRow } from '@gantry/shared';
import { Button, Card } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../components/ScrollTable';
import { useHasRight } from '../../services/auth';
import { exportHistory, useHistory } from '../../services/licenceHistory';
import { fileDate, saveFile } from '../../utils/saveFile';
import { rowTestId } from '../../utils/testId';
import { TABLE_COLUMNS } from './fields';
import { fieldLabel, fieldValue } from './fieldValue';
import { HistoryDrawer } from './HistoryDrawer';

export const HISTORY_PAGE_SIZE = 20;
const ACTIONS_WIDTH = 90;
/** The table scrolls at the sum of its column widths (console.md §9 said 1500, which cut the time). */
export const HISTORY_SCROLL_X = TABLE_COLUMNS.reduce((sum, column) => sum + column.width, ACTIONS_WIDTH);

export function historyFileName(date = new Date()): string {
  return `licence-history-${fileDate(date)}.csv`;
}

/** /app/model/Licenseinfo/list (right log.view): every applied licence with its machine, newest first. */
export default function LicenceHistoryPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(HISTORY_PAGE_SIZE);
  const [viewing, setViewing] = useState<MachineInfoRow | null>(null);
  const [exporting, setExporting] = useState(false);
  const mayExport = useHasRight('log.export') === true;
  const list = useHistory({ page, pageSize });

  const columns = useMemo<ColumnsType<MachineInfoRow>>(
    () => [
      ...TABLE_COLUMNS.map(({ field, width, whole }) => ({
        key: field,
        title: fieldLabel(field),
        width,
        ellipsis: whole ? false : { showTitle: true },
        className: whole ? 'gantry-nowrap' : undefined,
        render: (_value: unknown, row: MachineInfoRow) => fieldValue(row, field),
      })),
      {
        key: 'actions',
        title: t('licence.history.actions'),
        fixed: 'right',
        width: ACTIONS_WIDTH,
        render: (_value, row) => (
          <Button type="link" size="small" data-testid={`history-view-${row.id}`} onClick={() => setViewing(row)}>
            {t('licence.history.view')}
          </Button>
        ),
      },
    ],
    [t],
  );

  const download = async () => {
    setExporting(true);
    try {
      saveFile(await exportHistory(), historyFileName());
    } catch {
      // the request layer has shown the failure
    } finally {
      setExporting(false);
    }
  };

  return (
    <Card
      title={t('licence.historyTitle')}
      extra={
        mayExport ? (
          <Button icon={<DownloadOutlined />} data-testid="history-export" loading={exporting} onClick={download}>
            {t('licence.history.export')}
          </Button>
        ) : null
      }
    >
      <ScrollTable<MachineInfoRow>
        rowKey="id"
        size="middle"
        data-testid="history-table"
        loading={list.isFetching}
        dataSource={list.data?.rows ?? []}
        columns={columns}
        scroll={{ x: HISTORY_SCROLL_X }}
        sticky
        onRow={(row) => rowTestId(`history-row-${row.id}`)}
        pagination={{
          current: page,
          pageSize,
          total: list.data?.total ?? 0,
          onChange: (next, size) => {
            setPage(size === pageSize ? next : 1);
            setPageSize(size);
          },
        }}
      />
      <HistoryDrawer row={viewing} onClose={() => setViewing(null)} />
    </Card>
  );
}
