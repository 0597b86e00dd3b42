import { BACKUP_LIMITS, defaultBackupName } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Form, Modal, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../utils/testId';
import { FolderPicker } from './FolderPicker';
import { KindsItem, ModulesItem } from './FormItems';
import { type AnyBackupKind, hasKind } from './KindChoice';
import { NameField } from './NameField';
import { useDialogWidth } from './useDialogWidth';

export interface CreateValues<K extends AnyBackupKind> {
  name: string;
  item: K[];
  /** The data modules (with `modulesKind` chosen). */
  mongoItem: string[];
  /** Media folders left out (with fileServer chosen). */
  excludedDirs: string[];
}

/**
 * The backup-creation dialog of either family (backups-data-designer.md §2, 50% width): the name
 * (project name and the time by default, 30 characters, counted), the content with select-all and
 * each part's size, the data modules when `modulesKind` is chosen (the selection links applied), the
 * media folders left out; above 2,048 MB a warning that the backup takes long, asking to confirm.
 */
export function CreateDialog<K extends AnyBackupKind>({
  prefix,
  title,
  projectId,
  projectName,
  kinds,
  initialKinds = [],
  modulesKind,
  sizes,
  start,
  onClose,
}: {
  prefix: string;
  title: string;
  projectId: string;
  projectName: string;
  kinds: readonly K[];
  initialKinds?: readonly K[];
  modulesKind?: K;
  /** Whole MB per part, the folders left out not counted. */
  sizes: (excludedDirs: string[]) => Promise<Partial<Record<K, number>>>;
  /** Starts the backup; resolves once it is started (a refusal was shown and rejects). */
  start: (values: CreateValues<K>) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [form] = Form.useForm<Omit<CreateValues<K>, 'excludedDirs'>>();
  const [modal, modalHolder] = Modal.useModal();
  const [excluded, setExcluded] = useState<string[]>([]);
  const [picking, setPicking] = useState(false);
  const [busy, setBusy] = useState(false);
  const item: K[] = Form.useWatch('item', form) ?? [...initialKinds];
  const sizeQuery = useQuery({
    queryKey: ['backup-sizes', prefix, projectId, excluded],
    queryFn: () => sizes(excluded),
  });
  const sizeOf: Partial<Record<K, number>> = sizeQuery.data ?? {};
  const total = item.reduce((sum, kind) => sum + (sizeOf[kind] ?? 0), 0);

  const go = async (values: Omit<CreateValues<K>, 'excludedDirs'>) => {
    setBusy(true);
    try {
      await start({
        name: values.name.trim(),
        item: values.item,
        mongoItem: modulesKind && values.item.includes(modulesKind) ? (values.mongoItem ?? []) : [],
        excludedDirs: hasKind(values.item, 'fileServer') ? excluded : [],
      });
      onClose();
    } catch {
      // reported by the request layer
    } finally {
      setBusy(false);
    }
  };

  const submit = (values: Omit<CreateValues<K>, 'excludedDirs'>) => {
    if (total > BACKUP_LIMITS.largeContentMb) {
      modal.confirm({
        title: t('backups.large', { mb: BACKUP_LIMITS.largeContentMb }),
        okButtonProps: testId(`${prefix}-large-ok`),
        onOk: () => go(values),
      });
      return;
    }
    void go(values);
  };

  return (
    <Modal
      open
      width={width}
      title={title}
      onCancel={onClose}
      onOk={() => form.submit()}
      confirmLoading={busy}
      okButtonProps={testId(`${prefix}-create-ok`)}
      mask={{ closable: false }}
      destroyOnHidden
    >
      {modalHolder}
      <Form<Omit<CreateValues<K>, 'excludedDirs'>>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ name: defaultBackupName(projectName, new Date()), item: [...initialKinds], mongoItem: [] }}
        data-testid={`${prefix}-create-form`}
      >
        <NameField prefix={prefix} />
        <KindsItem<K>
          prefix={prefix}
          offered={kinds}
          sizes={sizeOf}
          extra={
            item.length > 0 && <span data-testid={`${prefix}-size-total`}>{t('backups.sizeTotal', { mb: total })}</span>
          }
        />
        {modulesKind && item.includes(modulesKind) && <ModulesItem prefix={prefix} />}
        {hasKind(item, 'fileServer') && (
          <Form.Item label={t('backups.exempt')}>
            <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
              {excluded.map((path) => (
                <Tag
                  key={path}
                  closable
                  onClose={() => setExcluded(excluded.filter((p) => p !== path))}
                  data-testid={`${prefix}-excluded-${path}`}
                >
                  {path}
                </Tag>
              ))}
              <Button size="small" onClick={() => setPicking(true)} data-testid={`${prefix}-pick-folders`}>
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
