import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../services/feedback';
import { confirmSync, type SyncPreview, syncPreview } from '../../../services/tableFunctions';
import { createTable, type TableSummary } from '../../../services/tables';
import { testId } from '../../../utils/testId';
import './functionTexts';
import { changeDialogWidth, FieldChangeTable } from './designer/FieldChangeTable';
import { ProblemItem } from './ProblemItem';

type SyncChange = SyncPreview['changes'][number];

/**
 * A new mapping table (backups-data-designer.md §4a): a name and a published source table of the
 * project, whose fields it takes and then follows.
 */
export function MappingCreateDialog({
  projectId,
  open,
  tables,
  onClose,
  onCreated,
}: {
  projectId: string;
  open: boolean;
  tables: TableSummary[];
  onClose: () => void;
  onCreated: (id: string) => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const [source, setSource] = useState<string>();
  const [touched, setTouched] = useState(false);
  const [saving, setSaving] = useState(false);
  const sources = tables.filter((table) => table.state === 'published');
  const confirm = async () => {
    setTouched(true);
    if (name.trim() === '' || source === undefined) return;
    setSaving(true);
    try {
      const created = await createTable(projectId, name.trim(), source);
      onCreated(created.id);
    } catch {
      // The request reported the refusal; the dialog stays open.
    } finally {
      setSaving(false);
    }
  };
  return (
    <Modal
      open={open}
      title={t('designer.newMapping')}
      okButtonProps={testId('mapping-create-confirm', { loading: saving })}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component="div">
        <ProblemItem
          label={t('tables.ui.name')}
          htmlFor="mapping-name"
          required
          problem={touched && name.trim() === '' && t('table.nameRequired')}
        >
          <Input id="mapping-name" data-testid="mapping-name" value={name} onChange={(e) => setName(e.target.value)} />
        </ProblemItem>
        <ProblemItem
          label={t('designer.mappingSource')}
          htmlFor="mapping-source"
          required
          problem={touched && source === undefined && t('designer.mappingSourceRequired')}
        >
          <Select
            id="mapping-source"
            data-testid="mapping-source"
            value={source}
            onChange={setSource}
            options={sources.map((table) => ({ value: table.id, label: table.title ?? table.name }))}
          />
        </ProblemItem>
        <Alert type="info" showIcon title={t('designer.mappingHint')} />
      </Form>
    </Modal>
  );
}

/**
 * A mapping table's sync configuration step: what changed in the source since the last sync; when
 * fields no longer match, the spec's 'data sync exception' notice says confirming deletes them.
 */
export function SyncDialog({
  projectId,
  table,
  onClose,
  onSynced,
}: {
  projectId: string;
  table: TableSummary | undefined;
  onClose: () => void;
  onSynced: () => void;
}) {
  const { t } = useTranslation();
  const [syncing, setSyncing] = useState(false);
  const preview = useQuery({
    queryKey: ['tableSync', projectId, table?.id],
    enabled: table !== undefined,
    queryFn: () => syncPreview(projectId, table?.id ?? ''),
    gcTime: 0,
  });
  const data = preview.data;
  const confirm = async () => {
    if (!table || !data) return;
    setSyncing(true);
    try {
      await confirmSync(projectId, table.id, data.sourceVersion);
      toast.success(t('designer.synced'));
      onSynced();
    } catch {
      // The request reported 'data sync exception' and why; the step stays open.
    } finally {
      setSyncing(false);
    }
  };
  return (
    <Modal
      open={table !== undefined}
      title={t('designer.syncTitle', { name: table?.title ?? table?.name ?? '' })}
      okText={t('designer.syncConfirm')}
      okButtonProps={testId('sync-confirm', { loading: syncing, disabled: !data })}
      onOk={() => void confirm()}
      onCancel={onClose}
      width={changeDialogWidth(720)}
      destroyOnHidden
    >
      {data && (
        <div data-testid="sync-changes">
          {data.mismatched.length > 0 && (
            <Alert
              type="warning"
              showIcon
              data-testid="sync-mismatch"
              title={t('table.syncMismatch')}
              description={data.mismatched.join(', ')}
              style={{ marginBottom: 12 }}
            />
          )}
          <p data-testid="sync-intro">
            {data.changes.length === 0
              ? t('designer.syncNone')
              : t('designer.syncIntro', { from: data.syncedVersion, to: data.sourceVersion })}
          </p>
          {data.changes.length > 0 && (
            <FieldChangeTable<SyncChange>
              changes={data.changes}
              testIdPrefix="sync-change-"
              scrollX={480}
              columns={[{ title: t('designer.syncValues'), dataIndex: 'values', align: 'right' }]}
            />
          )}
        </div>
      )}
    </Modal>
  );
}
