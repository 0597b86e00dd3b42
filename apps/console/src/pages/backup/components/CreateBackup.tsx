import { BACKUP_LIMITS, type BackupKind, defaultBackupName } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Form, Input, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backupSizes, startBackup } from '../../../services/backup';
import { watchBackupTask } from '../../../services/backupTasks';
import { toast } from '../../../services/feedback';
import { testId } from '../../../utils/testId';
import { FolderPicker } from './FolderPicker';
import { KindChoice } from './KindChoice';
import { ModuleChoice } from './ModuleChoice';
import { useDialogWidth } from './useDialogWidth';

interface Values {
  name: string;
  item: BackupKind[];
  mongoItem: string[];
}

/** A request id for the progress channel (the task is also found by its id). */
export function newRequestId(): string {
  return typeof crypto.randomUUID === 'function'
    ? crypto.randomUUID()
    : `${Date.now().toString(36)}${Math.random().toString(36).slice(2)}`;
}

/**
 * The backup-creation dialog (backups-data-designer.md §2, 50% width): name (project name and the
 * time by default), content with select-all, data content grouped (with mongodb only, the selection
 * links applied), the media folders left out, the sizes of what is chosen; above 2,048 MB a warning
 * that the backup takes long, asking to confirm.
 */
export function CreateBackup({
  projectId,
  projectName,
  onClose,
}: {
  projectId: string;
  projectName: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [form] = Form.useForm<Values>();
  const [modal, modalHolder] = Modal.useModal();
  const [excluded, setExcluded] = useState<string[]>([]);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const item = Form.useWatch('item', form) ?? [];
  const sizes = useQuery({
    queryKey: ['backup-sizes', projectId, excluded],
    queryFn: () => backupSizes(projectId, excluded),
  });
  const sizeOf = Object.fromEntries((sizes.data ?? []).map((entry) => [entry.name, entry.size])) as Partial<
    Record<BackupKind, number>
  >;
  const total = item.reduce((sum, kind) => sum + (sizeOf[kind] ?? 0), 0);

  const start = async (values: Values) => {
    setBusy(true);
    try {
      const mongodb = values.item.includes('mongodb');
      const task = await startBackup(projectId, {
        name: values.name.trim(),
        item: Object.fromEntries(values.item.map((kind) => [kind, true])),
        moduleRules: mongodb ? Object.fromEntries(values.mongoItem.map((module) => [module, 0 as const])) : {},
        excludedDirs: values.item.includes('fileServer') ? excluded : [],
        requestId: newRequestId(),
      });
      watchBackupTask(task.id);
      toast.success(t('backups.started'));
      onClose();
    } catch {
      // reported by the request layer
    } finally {
      setBusy(false);
    }
  };

  const submit = (values: Values) => {
    if (total > BACKUP_LIMITS.largeContentMb) {
      modal.confirm({
        title: t('backups.large', { mb: BACKUP_LIMITS.largeContentMb }),
        okButtonProps: testId('backup-large-ok'),
        onOk: () => start(values),
      });
      return;
    }
    void start(values);
  };

  return (
    <Modal
      open
      width={width}
      title={t('backups.create')}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={testId('backup-create-ok')}
      destroyOnHidden
    >
      {modalHolder}
      <Form<Values>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ name: defaultBackupName(projectName, new Date()), item: [], mongoItem: [] }}
        data-testid="backup-create-form"
      >
        <Form.Item
          name="name"
          label={t('backups.name')}
          rules={[
            { required: true, whitespace: true, message: t('backup.nameRequired') },
            { max: BACKUP_LIMITS.nameMax, message: t('backup.nameTooLong') },
          ]}
        >
          <Input maxLength={BACKUP_LIMITS.nameMax} showCount data-testid="backup-name" />
        </Form.Item>
        <Form.Item
          name="item"
          label={t('backups.content')}
          rules={[
            {
              validator: (_, value: BackupKind[] | undefined) =>
                value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(t('backup.contentEmpty'))),
            },
          ]}
          extra={
            item.length > 0 && <span data-testid="backup-size-total">{t('backups.sizeTotal', { mb: total })}</span>
          }
        >
          <KindChoice sizes={sizeOf} />
        </Form.Item>
        {item.includes('html') && (
          <Alert type="warning" showIcon message={t('backups.htmlWarning')} style={{ marginBottom: 16 }} />
        )}
        {item.includes('mongodb') && (
          <Form.Item
            name="mongoItem"
            label={t('backups.modules')}
            rules={[
              {
                validator: (_, value: string[] | undefined) =>
                  value && value.length > 0
                    ? Promise.resolve()
                    : Promise.reject(new Error(t('backup.modulesRequired'))),
              },
            ]}
          >
            <ModuleChoice />
          </Form.Item>
        )}
        {item.includes('fileServer') && (
          <Form.Item label={t('backups.exempt')}>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
              {excluded.map((path) => (
                <Tag
                  key={path}
                  closable
                  onClose={() => setExcluded(excluded.filter((p) => p !== path))}
                  data-testid={`backup-excluded-${path}`}
                >
                  {path}
                </Tag>
              ))}
              <Button size="small" onClick={() => setPicking(true)} data-testid="backup-pick-folders">
                {t('backups.pickFolders')}
              </Button>
            </div>
          </Form.Item>
        )}
      </Form>
      {picking && (
        <FolderPicker
          projectId={projectId}
          value={excluded}
          onClose={(chosen) => {
            setPicking(false);
            if (chosen) setExcluded(chosen);
          }}
        />
      )}
    </Modal>
  );
}
