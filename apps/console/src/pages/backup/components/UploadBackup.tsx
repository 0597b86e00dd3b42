import { UploadOutlined } from '@ant-design/icons';
import { BACKUP_LIMITS, BACKUP_UPLOAD_EXTENSIONS, uploadRecordName } from '@gantry/shared';
import { Button, Modal, Progress } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { uploadBackup } from '../../../services/backup';
import { toast } from '../../../services/feedback';
import { isRequestError } from '../../../services/request';
import { testId } from '../../../utils/testId';
import { CodeField } from './DownloadBackup';

const MB = 1024 * 1024;

/** Upload progress as the spec counts it: loaded MB over total MB, in percent. */
export const uploadPercent = (loaded: number, total: number) =>
  total > 0 ? Math.min(100, Math.round((loaded / MB / (total / MB)) * 100)) : 0;

/**
 * Uploading a backup file (§2, §5): a zip only, a name of letters, digits, dot and underscore,
 * a file over 2 GB confirmed first; the code (if it was downloaded with one); a progress bar.
 */
export function UploadBackup({
  projectId,
  onClose,
  onUploaded,
}: {
  projectId: string;
  onClose: () => void;
  onUploaded: () => void;
}) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const input = useRef<HTMLInputElement>(null);
  const [code, setCode] = useState<string | null>('');
  const [percent, setPercent] = useState<number | null>(null);

  const send = async (file: File, password: string) => {
    setPercent(0);
    try {
      await uploadBackup(projectId, file, password, (loaded, total) => setPercent(uploadPercent(loaded, total)));
      toast.success(t('backups.uploaded'));
      onUploaded();
      onClose();
    } catch (error) {
      if (!isRequestError(error) || !error.message) toast.error(t('backups.uploadFailed'));
    } finally {
      setPercent(null);
    }
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || code === null) return;
    const lower = file.name.toLowerCase();
    if (!BACKUP_UPLOAD_EXTENSIONS.some((ext) => lower.endsWith(ext))) {
      toast.error(t('backup.uploadNotZip'));
      return;
    }
    if (!uploadRecordName(file.name)) {
      toast.error(t('backup.uploadName'));
      return;
    }
    if (file.size > BACKUP_LIMITS.largeUploadBytes) {
      modal.confirm({
        title: t('backups.uploadLarge'),
        okButtonProps: testId('backup-upload-large-ok'),
        onOk: () => {
          void send(file, code);
        },
      });
      return;
    }
    void send(file, code);
  };

  return (
    <Modal open title={t('backups.upload')} onCancel={onClose} footer={null} destroyOnHidden maskClosable={false}>
      {modalHolder}
      <div style={{ display: 'grid', gap: 12 }}>
        <CodeField onChange={setCode} />
        <input
          ref={input}
          type="file"
          accept={BACKUP_UPLOAD_EXTENSIONS.join(',')}
          hidden
          onChange={picked}
          data-testid="backup-upload-input"
        />
        <Button
          icon={<UploadOutlined />}
          disabled={code === null || percent !== null}
          onClick={() => input.current?.click()}
          data-testid="backup-upload-pick"
        >
          {t('backups.uploadPick')}
        </Button>
        {percent !== null && <Progress percent={percent} data-testid="backup-upload-progress" />}
      </div>
    </Modal>
  );
}
