import { Alert, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { FieldChange, PublishPreview } from '../../../../services/tables';
import { testId } from '../../../../utils/testId';
import { dynamicText } from '../texts';
import { changeDialogWidth, FieldChangeTable } from './FieldChangeTable';

interface Props {
  preview: PublishPreview | undefined;
  /** The table has been published before: an update publish. */
  update: boolean;
  publishing: boolean;
  /** 'publish failed' and its reason, from the last attempt. */
  failure: string | undefined;
  onConfirm: () => void;
  onCancel: () => void;
}

/**
 * The difference to the published version before a publish (issue 16 §2): each field added, removed,
 * retyped or reconfigured, with how many existing values it holds, converts and drops.
 */
export function PublishDialog({ preview, update, publishing, failure, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Modal
      open={preview !== undefined}
      title={update ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
      okText={update ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
      okButtonProps={testId('publish-confirm', { loading: publishing })}
      onOk={onConfirm}
      onCancel={onCancel}
      width={changeDialogWidth(760)}
      destroyOnHidden
    >
      {preview && (
        <div data-testid="publish-changes">
          {failure && (
            <Alert type="error" showIcon data-testid="publish-failure" title={failure} style={{ marginBottom: 12 }} />
          )}
          <p data-testid="publish-intro">
            {update ? t('designer.publishIntro', { records: preview.records }) : t('designer.firstPublish')}
          </p>
          <FieldChangeTable<FieldChange>
            changes={preview.changes}
            testIdPrefix="change-"
            scrollX={560}
            emptyText={t('tables.ui.noChanges')}
            columns={[
              { title: t('tables.ui.values'), dataIndex: 'values', align: 'right' },
              { title: t('tables.ui.converted'), dataIndex: 'converted', align: 'right' },
              {
                title: t('tables.ui.dropped'),
                key: 'dropped',
                align: 'right',
                render: (_: unknown, change) =>
                  change.dropped > 0 ? <Tag color="red">{change.dropped}</Tag> : String(change.dropped),
              },
            ]}
          />
          {update && preview.settingsChanged.length > 0 && (
            <p style={{ marginTop: 12 }} data-testid="publish-settings">
              {t('designer.settingsChanged', {
                keys: preview.settingsChanged.map((key) => dynamicText(t, `designer.setting.${key}`, key)).join(', '),
              })}
            </p>
          )}
        </div>
      )}
    </Modal>
  );
}
