import { BACKUP_LIMITS } from '@gantry/shared';
import { Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';

/** A backup's name (§3, at most 30 characters): labelled, with its counter. Test id `<prefix>-name`. */
export function NameField({ prefix }: { prefix: string }) {
  const { t } = useTranslation();
  return (
    <Form.Item
      name="name"
      label={t('backups.name')}
      rules={[
        { required: true, whitespace: true, message: t('backup.nameRequired') },
        {
          validator: (_, value: string | undefined) =>
            [...(value ?? '').trim()].length > BACKUP_LIMITS.nameMax
              ? Promise.reject(new Error(t('backup.nameTooLong')))
              : Promise.resolve(),
        },
      ]}
    >
      <Input maxLength={BACKUP_LIMITS.nameMax} showCount data-testid={`${prefix}-name`} />
    </Form.Item>
  );
}
