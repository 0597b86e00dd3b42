import { UploadOutlined } from '@ant-design/icons';
import {
  BACKUP_LIMITS,
  BACKUP_UPLOAD_EXTENSIONS,
  DB_BACKUP_KINDS,
  type DbBackupKind,
  defaultBackupName,
  uploadRecordName,
} from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Input, Modal, Progress, Tag } from 'antd';
import { type ChangeEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  type DbBackupSource,
  dbBackupDownloadUrl,
  dbBackupStats,
  startDbRestore,
  startDump,
  uploadDbBackup,
} from '../../../services/dbBackup';
import { toast } from '../../../services/feedback';
import { isRequestError } from '../../../services/request';
import '../../backup/texts';
import { testId } from '../../../utils/testId';
import { CodeField } from '../../backup/components/DownloadBackup';
import { FolderPicker } from '../../backup/components/FolderPicker';
import { uploadPercent } from '../../backup/components/UploadBackup';
import type { DbBackupRow } from './DbBackupList';

const flags = (kinds: DbBackupKind[]) => Object.fromEntries(kinds.map((kind) => [kind, true]));

/** The parts to back up or restore, with select-all (indeterminate when only some are chosen). */
function Parts({
  offered,
  value,
  onChange,
  sizes,
}: {
  offered: readonly DbBackupKind[];
  value: DbBackupKind[];
  onChange: (next: DbBackupKind[]) => void;
  sizes?: Partial<Record<DbBackupKind, number>>;
}) {
  const { t } = useTranslation();
  return (
    <div style={{ display: 'grid', gap: 8 }}>
      <Checkbox
        checked={value.length === offered.length}
        indeterminate={value.length > 0 && value.length < offered.length}
        onChange={(event) => onChange(event.target.checked ? [...offered] : [])}
        data-testid="db-parts-all"
      >
        {t('dbBackups.all')}
      </Checkbox>
      <Checkbox.Group<DbBackupKind>
        value={value}
        onChange={(next) => onChange(offered.filter((kind) => next.includes(kind)))}
        options={offered.map((kind) => ({
          value: kind,
          label: (
            <span data-testid={`db-part-${kind}`}>
              {t(`dbBackups.kind.${kind}`)}
              {sizes?.[kind] !== undefined ? ` (${sizes[kind]} MB)` : ''}
            </span>
          ),
        }))}
      />
      {value.length === 0 && <span className="ant-form-item-explain-error">{t('backup.contentEmpty')}</span>}
    </div>
  );
}

/** The creation dialog of a database backup: name (project name + timestamp) and the parts, with their sizes. */
export function DumpDialog({
  projectId,
  projectName,
  onClose,
  onStarted,
}: {
  projectId: string;
  projectName: string;
  onClose: () => void;
  onStarted: (jobId: string) => void;
}) {
  const { t } = useTranslation();
  const [modal, modalHolder] = Modal.useModal();
  const [name, setName] = useState(() => defaultBackupName(projectName, new Date()));
  const [parts, setParts] = useState<DbBackupKind[]>([...DB_BACKUP_KINDS]);
  const [busy, setBusy] = useState(false);
  const [excluded, setExcluded] = useState<string[]>([]);
  const [picking, setPicking] = useState(false);
  const stats = useQuery({
    queryKey: ['db-backup-stats', projectId, excluded],
    queryFn: () => dbBackupStats(projectId, excluded),
  });
  const sizes = Object.fromEntries((stats.data ?? []).map((row) => [row.name, row.size]));
  const nameError = !name.trim()
    ? t('backup.nameRequired')
    : [...name.trim()].length > BACKUP_LIMITS.nameMax
      ? t('backup.nameTooLong')
      : null;

  const start = async () => {
    setBusy(true);
    try {
      const excludedDirs = parts.includes('fileServer') ? excluded : [];
      const { id } = await startDump(projectId, { name: name.trim(), item: flags(parts), excludedDirs });
      toast.success(t('dbBackups.started'));
      onStarted(id);
      onClose();
    } catch {
      // reported by the request layer
    } finally {
      setBusy(false);
    }
  };
  const confirm = () => {
    const total = parts.reduce((sum, kind) => sum + (sizes[kind] ?? 0), 0);
    if (total > BACKUP_LIMITS.largeContentMb) {
      modal.confirm({
        title: t('dbBackups.large', { mb: BACKUP_LIMITS.largeContentMb }),
        okButtonProps: testId('db-large-ok'),
        onOk: () => void start(),
      });
      return;
    }
    void start();
  };

  return (
    <Modal
      open
      title={t('dbBackups.createTitle')}
      onCancel={onClose}
      onOk={confirm}
      okButtonProps={testId('db-create-ok', { disabled: parts.length === 0 || nameError !== null, loading: busy })}
      destroyOnHidden
      maskClosable={false}
    >
      {modalHolder}
      <div style={{ display: 'grid', gap: 12 }}>
        <div>
          <Input
            value={name}
            onChange={(event) => setName(event.target.value)}
            placeholder={t('dbBackups.name')}
            data-testid="db-create-name"
          />
          {nameError && <span className="ant-form-item-explain-error">{nameError}</span>}
        </div>
        <Parts offered={DB_BACKUP_KINDS} value={parts} onChange={setParts} sizes={sizes} />
        {parts.includes('fileServer') && (
          <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, alignItems: 'center' }}>
            <span>{t('backups.exempt')}:</span>
            {excluded.map((path) => (
              <Tag
                key={path}
                closable
                onClose={() => setExcluded(excluded.filter((p) => p !== path))}
                data-testid={`db-excluded-${path}`}
              >
                {path}
              </Tag>
            ))}
            <Button size="small" onClick={() => setPicking(true)} data-testid="db-pick-folders">
              {t('backups.pickFolders')}
            </Button>
          </div>
        )}
      </div>
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

/** The restore dialog: the parts the backup holds; confirms that they will be replaced. */
export function RestoreDialog({
  projectId,
  source,
  row,
  onClose,
  onStarted,
}: {
  projectId: string;
  source: DbBackupSource;
  row: DbBackupRow;
  onClose: () => void;
  onStarted: (jobId: string) => void;
}) {
  const { t } = useTranslation();
  const offered = DB_BACKUP_KINDS.filter((kind) => row.item[kind]);
  const [parts, setParts] = useState<DbBackupKind[]>(offered);
  const [busy, setBusy] = useState(false);
  const start = async () => {
    setBusy(true);
    try {
      const { id } = await startDbRestore(projectId, source, row.id, flags(parts));
      onStarted(id);
      onClose();
    } catch {
      // reported by the request layer
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open
      title={t('dbBackups.restoreTitle', { name: row.name })}
      onCancel={onClose}
      onOk={() => void start()}
      okText={t('dbBackups.restore')}
      okButtonProps={testId('db-restore-ok', { danger: true, disabled: parts.length === 0, loading: busy })}
      destroyOnHidden
      maskClosable={false}
    >
      <div style={{ display: 'grid', gap: 12 }}>
        <Parts offered={offered} value={parts} onChange={setParts} />
        {parts.includes('html') && <Alert type="warning" showIcon message={t('dbBackups.htmlWarning')} />}
        <Alert type="error" showIcon message={t('dbBackups.restoreConfirm')} data-testid="db-restore-confirm" />
      </div>
    </Modal>
  );
}

/** The download dialog: with 'add code' the code is required, and the file is an AES-256 zip (§2). */
export function DownloadDialog({
  projectId,
  source,
  row,
  onClose,
}: {
  projectId: string;
  source: DbBackupSource;
  row: DbBackupRow;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState<string | null>('');
  const download = () => {
    if (code === null) return;
    const link = document.createElement('a');
    link.href = dbBackupDownloadUrl(projectId, source, row.id, code);
    link.download = `${row.name}.zip`;
    link.rel = 'noopener';
    document.body.appendChild(link);
    link.click();
    link.remove();
    onClose();
  };
  return (
    <Modal
      open
      title={`${t('dbBackups.download')}: ${row.name}`}
      onCancel={onClose}
      onOk={download}
      okButtonProps={testId('db-download-ok', { disabled: code === null })}
      destroyOnHidden
    >
      <CodeField onChange={setCode} />
    </Modal>
  );
}

/**
 * Uploading a database backup (§2): the code is asked first and may be left blank (confirm and cancel
 * both go on); then the file (a zip, the name rule, over 2 GB confirmed) with a progress bar.
 */
export function UploadDialog({
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
  const [step, setStep] = useState<'code' | 'file'>('code');
  const [code, setCode] = useState('');
  const [percent, setPercent] = useState<number | null>(null);

  const send = async (file: File) => {
    setPercent(0);
    try {
      const stored = await uploadDbBackup(projectId, file, code, (loaded, total) =>
        setPercent(uploadPercent(loaded, total)),
      );
      if (!stored?.id) throw new Error(t('dbBackups.uploadFailed'));
      toast.success(t('dbBackups.uploaded'));
      onUploaded();
      onClose();
    } catch (error) {
      // A refusal's message was shown by the request layer; anything else is 'Upload failed!'.
      if (!isRequestError(error) || !error.message) toast.error(t('dbBackups.uploadFailed'));
    } finally {
      setPercent(null);
    }
  };
  const picked = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!BACKUP_UPLOAD_EXTENSIONS.some((ext) => file.name.toLowerCase().endsWith(ext))) {
      toast.error(t('backup.uploadNotZip'));
      return;
    }
    if (!uploadRecordName(file.name)) {
      toast.error(t('backup.uploadName'));
      return;
    }
    if (file.size > BACKUP_LIMITS.largeUploadBytes) {
      modal.confirm({
        title: t('dbBackups.uploadLarge'),
        okButtonProps: testId('db-upload-large-ok'),
        onOk: () => void send(file),
      });
      return;
    }
    void send(file);
  };

  if (step === 'code') {
    return (
      <Modal
        open
        title={t('dbBackups.codeTitle')}
        onOk={() => setStep('file')}
        onCancel={() => {
          setCode('');
          setStep('file');
        }}
        okButtonProps={testId('db-code-ok')}
        cancelButtonProps={testId('db-code-cancel')}
        closable={false}
        maskClosable={false}
        destroyOnHidden
      >
        <p>{t('dbBackups.codePrompt')}</p>
        <Input.Password
          value={code}
          maxLength={BACKUP_LIMITS.passwordMax}
          onChange={(event) => setCode(event.target.value)}
          autoComplete="new-password"
          data-testid="db-upload-code"
        />
      </Modal>
    );
  }
  return (
    <Modal open title={t('dbBackups.upload')} onCancel={onClose} footer={null} destroyOnHidden maskClosable={false}>
      {modalHolder}
      <div style={{ display: 'grid', gap: 12 }}>
        <input
          ref={input}
          type="file"
          accept={BACKUP_UPLOAD_EXTENSIONS.join(',')}
          hidden
          onChange={picked}
          data-testid="db-upload-input"
        />
        <Button
          icon={<UploadOutlined />}
          disabled={percent !== null}
          onClick={() => input.current?.click()}
          data-testid="db-upload-pick"
        >
          {t('dbBackups.uploadPick')}
        </Button>
        {percent !== null && <Progress percent={percent} data-testid="db-upload-progress" />}
      </div>
    </Modal>
  );
}
