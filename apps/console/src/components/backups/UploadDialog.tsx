import { UploadOutlined } from '@ant-design/icons';
import { BACKUP_LIMITS, BACKUP_UPLOAD_EXTENSIONS, uploadRecordName } from '@gantry/shared';
import { Button, Input, Modal, Progress, Spin } from 'antd';
import { type ChangeEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveUploadOptions } from '../../services/backup';
import { toast } from '../../services/feedback';
import { isRequestError } from '../../services/request';
import { testId } from '../../utils/testId';
import { CodeField } from './CodeField';
import { useDialogWidth } from './useDialogWidth';

const MB = 1024 * 1024;

/** Upload progress as the spec counts it: loaded MB over total MB, in percent. */
export const uploadPercent = (loaded: number, total: number) =>
  total > 0 ? Math.min(100, Math.round((loaded / MB / (total / MB)) * 100)) : 0;

type Phase = { kind: 'pick' } | { kind: 'sending'; percent: number } | { kind: 'verifying' };

/**
 * Uploading a backup file, either family (§2, §5): the code, asked first in a step of its own where
 * it may be left blank (`askCodeFirst`, database backups) or as 'add code' beside the file; then the
 * file (a zip; over 2 GB confirmed first) with its progress, then 'verifying' while the server reads
 * the whole archive before it answers; the new record then shows in the list.
 */
export function UploadDialog({
  prefix,
  askCodeFirst = false,
  upload,
  onUploaded,
  onClose,
}: {
  prefix: string;
  askCodeFirst?: boolean;
  upload: (file: File, code: string, options: ArchiveUploadOptions) => Promise<{ id?: string } | undefined>;
  onUploaded: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [modal, modalHolder] = Modal.useModal();
  const input = useRef<HTMLInputElement>(null);
  const [asking, setAsking] = useState(askCodeFirst);
  const [code, setCode] = useState<string | null>('');
  const [phase, setPhase] = useState<Phase>({ kind: 'pick' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const send = async (file: File, password: string) => {
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'sending', percent: 0 });
    try {
      const stored = await upload(file, password, {
        signal: controller.signal,
        onProgress: (loaded, total) => setPhase({ kind: 'sending', percent: uploadPercent(loaded, total) }),
        onSent: () => setPhase({ kind: 'verifying' }),
      });
      if (!stored?.id) throw new Error(t('backups.uploadFailed'));
      toast.success(t('backups.uploaded'));
      onUploaded();
      onClose();
    } catch (error) {
      if (controller.signal.aborted) return;
      // A refusal's message was shown by the request layer; anything else is 'Upload failed!'.
      if (!isRequestError(error) || !error.message) toast.error(t('backups.uploadFailed'));
      setPhase({ kind: 'pick' });
    }
  };

  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file || code === null) return;
    if (!BACKUP_UPLOAD_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      toast.hint(t('backup.uploadNotZip'));
      return;
    }
    if (!uploadRecordName(file.name)) {
      toast.hint(t('backup.uploadName'));
      return;
    }
    if (file.size > BACKUP_LIMITS.largeUploadBytes) {
      modal.confirm({
        title: t('backups.uploadLarge'),
        okButtonProps: testId(`${prefix}-upload-large-ok`),
        onOk: () => void send(file, code),
      });
      return;
    }
    void send(file, code);
  };

  if (asking) {
    return (
      <Modal
        open
        width={width}
        title={t('dbBackups.codeTitle')}
        onOk={() => setAsking(false)}
        onCancel={() => {
          setCode('');
          setAsking(false);
        }}
        okButtonProps={testId(`${prefix}-code-ok`)}
        cancelButtonProps={testId(`${prefix}-code-cancel`)}
        closable={false}
        mask={{ closable: false }}
        destroyOnHidden
      >
        <p>{t('dbBackups.codePrompt')}</p>
        <Input.Password
          value={code ?? ''}
          maxLength={BACKUP_LIMITS.passwordMax}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="new-password"
          data-testid={`${prefix}-upload-code`}
        />
      </Modal>
    );
  }
  const busy = phase.kind !== 'pick';
  return (
    <Modal
      open
      width={width}
      title={t('backups.upload')}
      onCancel={onClose}
      footer={null}
      destroyOnHidden
      mask={{ closable: false }}
    >
      {modalHolder}
      <div style={{ display: 'grid', gap: 12 }}>
        {!askCodeFirst && <CodeField onChange={setCode} disabled={busy} />}
        <input
          ref={input}
          type="file"
          accept={BACKUP_UPLOAD_EXTENSIONS.join(',')}
          hidden
          onChange={picked}
          data-testid={`${prefix}-upload-input`}
        />
        <Button
          icon={<UploadOutlined />}
          disabled={code === null || busy}
          onClick={() => input.current?.click()}
          data-testid={`${prefix}-upload-pick`}
        >
          {t('backups.uploadPick')}
        </Button>
        {phase.kind === 'sending' && (
          <div data-testid={`${prefix}-upload-progress`}>
            <span>{t('backups.uploading')}</span>
            <Progress percent={phase.percent} />
          </div>
        )}
        {phase.kind === 'verifying' && (
          <div data-testid={`${prefix}-upload-verifying`}>
            <div style={{ display: 'flex', gap: 8, alignItems: 'center' }}>
              <Spin size="small" />
              <span>{t('backups.verifying')}</span>
            </div>
            <Progress percent={100} status="active" showInfo={false} />
          </div>
        )}
      </div>
    </Modal>
  );
}
