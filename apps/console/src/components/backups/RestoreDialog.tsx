import { isCollection, RESTORE_RULES, type RestorePlan, type RestoreRule } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { testId } from '../../utils/testId';
import { ScrollTable } from '../ScrollTable';
import { KindsItem, ModulesItem } from './FormItems';
import { type AnyBackupKind, hasKind } from './KindChoice';
import { newRequestId } from './newRequestId';
import { useDialogWidth } from './useDialogWidth';

export interface RestoreValues<K extends AnyBackupKind> {
  item: K[];
  /** The data modules to restore (with `modulesKind`). */
  mongoItem: string[];
  /** The rule of those modules (with `modulesKind`), or the family's `fixedRule`. */
  itemType: RestoreRule | undefined;
  /** The progress channel's key of this restore (its dry run and its start share it). */
  requestId: string;
}

/**
 * The restore dialog of either family (§2, 50% width): only the parts the backup holds, none chosen
 * until the user chooses; with the data part of a project backup, its modules (those it holds) and
 * the rule; a database backup's rule is fixed and said. The warning that front-end pages replace
 * the project's files with html chosen; the dry run of what would change where the family has one;
 * then the confirmation that data will be replaced.
 */
export function RestoreDialog<K extends AnyBackupKind>({
  prefix,
  name,
  kinds,
  modulesKind,
  modules = [],
  fixedRule,
  plan,
  start,
  onClose,
}: {
  prefix: string;
  name: string;
  /** The parts the backup holds. */
  kinds: readonly K[];
  modulesKind?: K;
  /** The data modules the backup holds. */
  modules?: readonly string[];
  fixedRule?: RestoreRule;
  plan?: (values: RestoreValues<K>) => Promise<RestorePlan>;
  start: (values: RestoreValues<K>) => Promise<void>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [form] = Form.useForm<Omit<RestoreValues<K>, 'requestId'>>();
  const [modal, modalHolder] = Modal.useModal();
  const [busy, setBusy] = useState(false);
  const item: K[] = Form.useWatch('item', form) ?? [];
  const mongoItem: string[] = Form.useWatch('mongoItem', form) ?? [];
  const rule: RestoreRule | undefined = Form.useWatch('itemType', form);
  const withModules = modulesKind !== undefined && item.includes(modulesKind);
  const requestId = useMemo(newRequestId, []);
  const values: RestoreValues<K> = {
    item,
    mongoItem: withModules ? mongoItem : [],
    itemType: withModules ? rule : fixedRule,
    requestId,
  };
  const ready = item.length > 0 && (!withModules || (mongoItem.length > 0 && rule !== undefined));
  const dryRun = useQuery({
    queryKey: ['backup-plan', prefix, name, values],
    queryFn: () => (plan ? plan(values) : Promise.reject(new Error('no dry run'))),
    enabled: ready && plan !== undefined,
  });

  const submit = (chosen: Omit<RestoreValues<K>, 'requestId'>) => {
    const withChosenModules = modulesKind !== undefined && chosen.item.includes(modulesKind);
    const final: RestoreValues<K> = {
      item: chosen.item,
      mongoItem: withChosenModules ? (chosen.mongoItem ?? []) : [],
      itemType: withChosenModules ? chosen.itemType : fixedRule,
      requestId,
    };
    modal.confirm({
      title: t('backups.replaceConfirm'),
      okButtonProps: testId(`${prefix}-replace-ok`, { danger: true }),
      onOk: async () => {
        setBusy(true);
        try {
          await start(final);
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
      title={t('backups.restoreTitle', { name })}
      onCancel={onClose}
      onOk={() => form.submit()}
      okText={t('backups.restore')}
      confirmLoading={busy}
      okButtonProps={testId(`${prefix}-restore-ok`, { danger: true })}
      mask={{ closable: false }}
      destroyOnHidden
    >
      {modalHolder}
      <Form<Omit<RestoreValues<K>, 'requestId'>>
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{ item: [], mongoItem: [] }}
      >
        <KindsItem<K> prefix={prefix} offered={kinds} />
        {hasKind(item, 'html') && (
          <Alert
            type="warning"
            showIcon
            title={t('backups.htmlWarning')}
            style={{ marginBottom: 16 }}
            data-testid={`${prefix}-html-warning`}
          />
        )}
        {withModules && (
          <>
            <ModulesItem prefix={prefix} offered={modules} extra={t('backups.restoreModulesHint')} />
            <Form.Item
              name="itemType"
              label={t('backups.rule')}
              rules={[{ type: 'enum', enum: [...RESTORE_RULES], required: true, message: t('backup.ruleRequired') }]}
            >
              <Select<RestoreRule>
                data-testid={`${prefix}-rule`}
                options={RESTORE_RULES.map((value) => ({ value, label: t(`backups.rule.${value}`) }))}
              />
            </Form.Item>
          </>
        )}
        {fixedRule !== undefined && item.length > 0 && (
          <Alert
            type="info"
            showIcon
            title={t('backups.restoreFixedRule', { rule: t(`backups.rule.${fixedRule}`) })}
            style={{ marginBottom: 16 }}
            data-testid={`${prefix}-fixed-rule`}
          />
        )}
      </Form>
      {ready && dryRun.data && (
        <div data-testid={`${prefix}-plan`}>
          <strong>{t('backups.plan')}</strong>
          {dryRun.data.modules.length > 0 && (
            <ScrollTable
              size="small"
              rowKey="module"
              pagination={false}
              scroll={{ x: 420, y: 240 }}
              dataSource={dryRun.data.modules}
              columns={[
                {
                  title: t('backups.plan.module'),
                  dataIndex: 'module',
                  render: (module: string) => (isCollection(module) ? t(`backups.module.${module}`) : module),
                },
                { title: t('backups.plan.added'), dataIndex: 'added', render: n },
                { title: t('backups.plan.overwritten'), dataIndex: 'overwritten', render: n },
                { title: t('backups.plan.kept'), dataIndex: 'kept', render: n },
                { title: t('backups.plan.deleted'), dataIndex: 'deleted', render: n },
              ]}
            />
          )}
          {dryRun.data.files.map((files) => (
            <div key={files.kind} data-testid={`${prefix}-plan-${files.kind}`}>
              {`${t(`backups.kind.${files.kind}`)}: ${t('backups.plan.added')} ${files.added} · ${t('backups.plan.replaced')} ${files.replaced} · ${t('backups.plan.deleted')} ${files.removed}`}
            </div>
          ))}
        </div>
      )}
    </Modal>
  );
}
