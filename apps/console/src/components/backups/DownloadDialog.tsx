import { Modal, Progress, Spin } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadOptions } from '../../services/backup';
import { saveFile } from '../../utils/saveFile';
import { testId } from '../../utils/testId';
import { CodeField } from './CodeField';
import { useDialogWidth } from './useDialogWidth';

const MB = 1024 * 1024;
/**
 * Files above this are left to the browser's own download, written to disk as they arrive: the page
 * would hold the whole file in memory before saving it (docs/DECISIONS.md, "One backup experience").
 */
export const DIRECT_DOWNLOAD_MB = 1024;
type Phase = { kind: 'ask' } | { kind: 'preparing' } | { kind: 'receiving'; loaded: number; total: number | undefined };

/**
 * The download dialog of every backup (§2): 'add code' (the buttons wait for the code), then the file
 * fetched here while the dialog says what happens: 'preparing' until the server answers (a coded file
 * is encrypted as it is sent; an FTP backup is fetched first), then the bytes received, in percent
 * when the server gave the length; then saved as `<name>.zip` (utils/saveFile). Cancel stops it. A
 * file over DIRECT_DOWNLOAD_MB goes to the browser's own download instead.
 */
export function DownloadDialog({
  prefix,
  name,
  sizeMb,
  fetchFile,
  byLink,
  onClose,
}: {
  prefix: string;
  name: string;
  /** The file's size (whole MB): above DIRECT_DOWNLOAD_MB, `byLink`. */
  sizeMb: number;
  fetchFile: (code: string, options: DownloadOptions) => Promise<{ blob: Blob; name: string | undefined }>;
  /** The browser downloads the file itself, as `fileName`. */
  byLink: (code: string, fileName: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const width = useDialogWidth('50%');
  const [code, setCode] = useState<string | null>('');
  const [phase, setPhase] = useState<Phase>({ kind: 'ask' });
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);

  const start = async () => {
    if (code === null) return;
    if (sizeMb > DIRECT_DOWNLOAD_MB) {
      byLink(code, `${name}.zip`);
      onClose();
      return;
    }
    const controller = new AbortController();
    abort.current = controller;
    setPhase({ kind: 'preparing' });
    try {
      const file = await fetchFile(code, {
        signal: controller.signal,
        onProgress: (loaded, total) => setPhase({ kind: 'receiving', loaded, total }),
      });
      saveFile(file.blob, `${name}.zip`);
      onClose();
    } catch {
      // reported by the request layer (a cancel is not an error)
      if (!controller.signal.aborted) setPhase({ kind: 'ask' });
    }
  };

  const busy = phase.kind !== 'ask';
  return (
    <Modal
      open
      width={width}
      title={`${t('backups.download')}: ${name}`}
      onCancel={onClose}
      onOk={() => void start()}
      okText={t('backups.download')}
      okButtonProps={testId(`${prefix}-download-ok`, { disabled: code === null, loading: busy })}
      maskClosable={false}
      destroyOnHidden
    >
      <div style={{ display: 'grid', gap: 12 }}>
        <CodeField onChange={setCode} disabled={busy} />
        {phase.kind === 'preparing' && (
          <div style={{ display: 'flex', gap: 8, alignItems: 'center' }} data-testid={`${prefix}-download-preparing`}>
            <Spin size="small" />
            <span>{t('backups.preparing')}</span>
          </div>
        )}
        {phase.kind === 'receiving' && (
          <div data-testid={`${prefix}-download-progress`}>
            {phase.total ? (
              <Progress percent={Math.min(100, Math.floor((phase.loaded / phase.total) * 100))} />
            ) : (
              <Progress percent={100} status="active" showInfo={false} />
            )}
            <span>{t('backups.receiving', { mb: Math.round(phase.loaded / MB) })}</span>
          </div>
        )}
      </div>
    </Modal>
  );
}
