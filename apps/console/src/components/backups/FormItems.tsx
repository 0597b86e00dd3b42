import { Form } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type AnyBackupKind, KindChoice } from './KindChoice';
import { ModuleChoice } from './ModuleChoice';

/** A rule that refuses an empty choice with `message`. */
const notEmpty = (message: string) => ({
  validator: (_: unknown, value: readonly unknown[] | undefined) =>
    value && value.length > 0 ? Promise.resolve() : Promise.reject(new Error(message)),
});

/** The form's `item`: the parts, at least one (creation and restore dialogs). */
export function KindsItem<K extends AnyBackupKind>({
  prefix,
  offered,
  sizes,
  extra,
}: {
  prefix: string;
  offered: readonly K[];
  sizes?: Partial<Record<K, number>>;
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item name="item" label={t('backups.content')} rules={[notEmpty(t('backup.contentEmpty'))]} extra={extra}>
      <KindChoice<K> prefix={prefix} offered={offered} sizes={sizes} />
    </Form.Item>
  );
}

/** The form's `mongoItem`: the data modules, at least one (creation and restore dialogs). */
export function ModulesItem({
  prefix,
  offered,
  extra,
}: {
  prefix: string;
  offered?: readonly string[];
  extra?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="mongoItem"
      label={t('backups.modules')}
      rules={[notEmpty(t('backup.modulesRequired'))]}
      extra={extra}
    >
      <ModuleChoice prefix={prefix} offered={offered} />
    </Form.Item>
  );
}
