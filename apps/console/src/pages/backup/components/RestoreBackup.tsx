import { BACKUP_KINDS, type BackupKind, type BackupView, RESTORE_RULES, type RestoreRule } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Select, Table } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ImportInput, restorePlan, startRestore } from '../../../services/backup';
import { watchBackupTask } from '../../../services/backupTasks';
import { toast } from '../../../services/feedback';
import { testId } from '../../../utils/testId';
import { newRequestId } from './CreateBackup';
import { KindChoice } from './KindChoice';
import { useDialogWidth } from './useDialogWidth';

interface Values {
  item: BackupKind[];
  itemType?: RestoreRule;
}

/**
 * The restore dialog (§2): only the parts the backup holds, the rule (with mongodb) for all its
 * modules, the dry run of what would change, then the confirmation that data will be replaced.
 */
export function RestoreBackup({
  projectId,
  record,
  onClose,
}: {
  projectId: string;
  record: BackupView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [form] = Form.useForm<Values>();
  const [modal, modalHolder] = Modal.useModal();
  const [busy, setBusy] = useState(false);
  const requestId = useMemo(newRequestId, []);
  const offered = BACKUP_KINDS.filter((kind) => record.item[kind]);
  const modules = Object.keys(record.moduleRules);
  const item = Form.useWatch('item', form) ?? offered;
  const rule = Form.useWatch('itemType', form);

  const inputOf = (kinds: BackupKind[], itemType: RestoreRule | undefined): ImportInput => ({
    id: record.id,
    name: record.name,
    item: Object.fromEntries(kinds.map((kind) => [kind, true])),
    moduleRules:
      kinds.includes('mongodb') && itemType !== undefined
        ? Object.fromEntries(modules.map((module) => [module, itemType]))
        : {},
    requestId,
  });
  const ready = item.length > 0 && (!item.includes('mongodb') || rule !== undefined);
  const input = inputOf(item, rule);
  const plan = useQuery({
    queryKey: ['backup-plan', projectId, input.id, input.item, input.moduleRules],
    queryFn: () => restorePlan(projectId, input),
    enabled: ready,
  });

  const submit = (values: Values) => {
    modal.confirm({
      title: t('backups.replaceConfirm'),
      okButtonProps: testId('backup-replace-ok', { danger: true }),
      onOk: async () => {
        setBusy(true);
        try {
          const task = await startRestore(projectId, inputOf(values.item, values.itemType));
          watchBackupTask(task.id);
          toast.success(t('backups.started'));
          onClose();
        } catch {
          // reported by the request layer
        } finally {
          setBusy(false);
        }
      },
    });
  };

  const n = (value: number) => <span>{value}</span>;
  return (
    <Modal
      open
      width={width}
      title={`${t('backups.restore')}: ${record.name}`}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={testId('backup-restore-ok')}
      destroyOnHidden
    >
      {modalHolder}
      <Form<Values> form={form} layout="vertical" onFinish={submit} initialValues={{ item: offered }}>
        <Form.Item
          name="item"
          label={t('backups.content')}
          rules={[
            {
              validator: (_, value: BackupKind[] | undefined) =>
                value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('backup.contentEmpty'))),
            },
          ]}
        >
          <KindChoice offered={offered} />
        </Form.Item>
        {item.includes('html') && (
          <Alert type="warning" showIcon message={t('backups.htmlWarning')} style={{ marginBottom: 16 }} />
        )}
        {item.includes('mongodb') && (
          <Form.Item
            name="itemType"
            label={t('backups.rule')}
            rules={[{ type: 'number', required: true, message: t('backup.ruleRequired') }]}
          >
            <Select<RestoreRule>
              data-testid="backup-rule"
              options={RESTORE_RULES.map((value) => ({ value, label: t(`backups.rule.${value}`) }))}
            />
          </Form.Item>
        )}
      </Form>
      {ready && plan.data && (
        <div data-testid="backup-plan">
          <strong>{t('backups.plan')}</strong>
          {plan.data.modules.length > 0 && (
            <Table
              size="small"
              rowKey="module"
              pagination={false}
              scroll={{ x: 420, y: 240 }}
              dataSource={plan.data.modules}
              columns={[
                { title: t('backups.plan.module'), dataIndex: 'module' },
                { title: t('backups.plan.added'), dataIndex: 'added', render: n },
                { title: t('backups.plan.overwritten'), dataIndex: 'overwritten', render: n },
                { title: t('backups.plan.kept'), dataIndex: 'kept', render: n },
                { title: t('backups.plan.deleted'), dataIndex: 'deleted', render: n },
              ]}
            />
          )}
          {plan.data.files.map((files) => (
            <div key={files.kind} data-testid={`backup-plan-${files.kind}`}>
              {`${t(`backups.kind.${files.kind}`)}: ${t('backups.plan.added')} ${files.added} · ${t('backups.plan.replaced')} ${files.replaced} · ${t('backups.plan.deleted')} ${files.removed}`}
            </div>
          ))}
        </div>
      )}
    </Modal>
  );
}
