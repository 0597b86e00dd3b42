import { BACKUP_LIMITS, type BackupView } from '@gantry/shared';
import { Checkbox, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { backupDownloadUrl } from '../../../services/backup';
import { testId } from '../../../utils/testId';

/** 'add code' with the verification code field: `null` while a chosen code is still empty (§2, §5). */
export function CodeField({ onChange }: { onChange: (code: string | null) => void }) {
  const { t } = useTranslation();
  const [add, setAdd] = useState(false);
  const [code, setCode] = useState('');
  const update = (nextAdd: boolean, nextCode: string) => {
    setAdd(nextAdd);
    setCode(nextCode);
    onChange(nextAdd ? (nextCode === '' ? null : nextCode) : '');
  };
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <Checkbox checked={add} onChange={(event) => update(event.target.checked, code)} data-testid="backup-add-code">
        {t('backups.addCode')}
      </Checkbox>
      {add && (
        <>
          <Input.Password
            placeholder={t('backups.code')}
            maxLength={BACKUP_LIMITS.passwordMax}
            value={code}
            onChange={(event) => update(true, event.target.value)}
            autoComplete="new-password"
            data-testid="backup-code"
          />
          {code === '' && (
            <span className="ant-form-item-explain-error" data-testid="backup-code-hint">
              {t('backup.passwordRequired')}
            </span>
          )}
        </>
      )}
    </div>
  );
}

/**
 * The download dialog (§2): with 'add code' the file is an AES-256 zip that opens with the code.
 * The browser downloads the link itself (token and project in the query), saved as `<name>.zip`.
 */
export function DownloadBackup({
  projectId,
  record,
  onClose,
}: {
  projectId: string;
  record: BackupView;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>('');
  const download = () => {
    if (code === null) return;
    const link = document.createElement('a');
    link.href = backupDownloadUrl(projectId, record.id, code);
    link.download = `${record.name}.zip`;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
    onClose();
  };
  return (
    <Modal
      open
      title={`${t('backups.download')}: ${record.name}`}
      onCancel={onClose}
      onOk={download}
      okButtonProps={testId('backup-download-ok', { disabled: code === null })}
      destroyOnHidden
    >
      <CodeField onChange={setCode} />
    </Modal>
  );
}
