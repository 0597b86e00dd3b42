import { Alert, Modal, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../../components/ScrollTable';
import type { FieldChange, PublishPreview } from '../../../../services/tables';
import { testId } from '../../../../utils/testId';
import { dynamicText } from '../texts';

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

const CHANGE_COLOURS: Record<FieldChange['change'], string> = {
  added: 'green',
  removed: 'red',
  typeChanged: 'orange',
  optionsChanged: 'blue',
};

/**
 * The difference to the published version before a publish (issue 16 §2): each field added, removed,
 * retyped or reconfigured, with how many existing values it holds, converts and drops.
 */
export function PublishDialog({ preview, update, publishing, failure, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const typeName = (type: string | undefined) => (type ? dynamicText(t, `designer.type.${type}`, type) : '');
  return (
    <Modal
      open={preview !== undefined}
      title={update ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
      okText={update ? t('tables.ui.updatePublish') : t('tables.ui.publish')}
      okButtonProps={testId('publish-confirm', { loading: publishing })}
      onOk={onConfirm}
      onCancel={onCancel}
      width={Math.min(760, typeof window === 'undefined' ? 760 : window.innerWidth - 16)}
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
          <ScrollTable<FieldChange>
            rowKey="field"
            size="small"
            pagination={false}
            scroll={{ x: 560 }}
            dataSource={preview.changes}
            locale={{ emptyText: t('tables.ui.noChanges') }}
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
                  <span data-testid={`change-${change.field}`}>
                    <Tag color={CHANGE_COLOURS[change.change]}>{t(`tables.ui.change.${change.change}`)}</Tag>
                    {change.change === 'typeChanged'
                      ? `${typeName(change.from)} → ${typeName(change.to)}`
                      : typeName(change.to ?? change.from)}
                  </span>
                ),
              },
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
