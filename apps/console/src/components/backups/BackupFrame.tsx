import { PlusOutlined, UploadOutlined } from '@ant-design/icons';
import type { RestorePlan, RestoreRule } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Select } from 'antd';
import { lazy, type ReactNode, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ArchiveUploadOptions, DownloadOptions } from '../../services/backup';
import { request } from '../../services/request';
import { testId } from '../../utils/testId';
import type { BackupRow } from './BackupList';
import type { CreateValues } from './CreateDialog';
import type { AnyBackupKind } from './KindChoice';
import type { RestoreValues } from './RestoreDialog';
import { useQueryParams } from './useQueryParams';

// The dialogs load when opened (weight/budgets.ts: the list shows none until asked).
const CreateDialog = lazy(() => import('./CreateDialog').then((m) => ({ default: m.CreateDialog })));
const DownloadDialog = lazy(() => import('./DownloadDialog').then((m) => ({ default: m.DownloadDialog })));
const RestoreDialog = lazy(() => import('./RestoreDialog').then((m) => ({ default: m.RestoreDialog })));
const UploadDialog = lazy(() => import('./UploadDialog').then((m) => ({ default: m.UploadDialog })));

/**
 * What one family of backups (project backups, database backups) does behind the shared dialogs:
 * its parts and the calls that back up, restore, download and upload.
 */
export interface BackupFamily<R extends BackupRow> {
  /** Test ids `<prefix>-…`. */
  prefix: string;
  kinds: readonly AnyBackupKind[];
  createTitle: string;
  /** The parts a new backup starts with. */
  initialKinds?: readonly AnyBackupKind[];
  /** The part whose data modules are chosen (project backups' mongodb). */
  modulesKind?: AnyBackupKind;
  /** The data modules a backup holds (offered by its restore). */
  modulesOf?: (row: R) => string[];
  /** A restore's rule when the family has only one (database backups: clear, then add). */
  fixedRule?: RestoreRule;
  /** The upload asks for the code first, in a step of its own. */
  askCodeFirst?: boolean;
  sizes: (excludedDirs: string[]) => Promise<Partial<Record<AnyBackupKind, number>>>;
  start: (values: CreateValues<AnyBackupKind>) => Promise<void>;
  plan?: (row: R, values: RestoreValues<AnyBackupKind>) => Promise<RestorePlan>;
  restore: (row: R, values: RestoreValues<AnyBackupKind>) => Promise<void>;
  download: (row: R, code: string, options: DownloadOptions) => Promise<{ blob: Blob; name: string | undefined }>;
  /** The browser's own download of a file too large for the page to hold. */
  downloadByLink: (row: R, code: string, fileName: string) => void;
  upload: (file: File, code: string, options: ArchiveUploadOptions) => Promise<{ id?: string } | undefined>;
  /** An upload was stored (its list shows it). */
  uploaded: () => void;
}

export type BackupDialog<R> =
  | { kind: 'create' }
  | { kind: 'upload' }
  | { kind: 'download'; row: R }
  | { kind: 'restore'; row: R }
  | null;

/**
 * A backup page's query (`projectId`, `action`, `tab`) and its open dialog: the project menus open
 * the creation and upload dialogs through `?action=` (also again while the page is open).
 */
export function useBackupPage<R>() {
  const [params, setParam] = useQueryParams();
  const action = params.get('action');
  const asked = action === 'create' || action === 'upload' ? action : null;
  const [dialog, setDialog] = useState<BackupDialog<R>>(() => (asked ? { kind: asked } : null));
  useEffect(() => {
    if (asked) setDialog({ kind: asked });
  }, [asked]);
  const close = () => {
    setDialog(null);
    if (asked) setParam({ action: null });
  };
  return { params, setParam, projectId: params.get('projectId') ?? '', action, dialog, setDialog, close };
}

/** The creation and upload buttons of a backup list's toolbar. */
export function BackupToolbar({ prefix, onDialog }: { prefix: string; onDialog: (kind: 'create' | 'upload') => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Button type="primary" icon={<PlusOutlined />} onClick={() => onDialog('create')} {...testId(`${prefix}-create`)}>
        {t('backups.create')}
      </Button>
      <Button icon={<UploadOutlined />} onClick={() => onDialog('upload')} {...testId(`${prefix}-upload`)}>
        {t('backups.upload')}
      </Button>
    </>
  );
}

/**
 * A backup page (backups-data-designer.md §2): titled, a project picker (nothing but the picker
 * without a project), the page's lists, and the family's dialogs.
 */
export function BackupFrame<R extends BackupRow>({
  title,
  page,
  family,
  children,
}: {
  title: ReactNode;
  page: ReturnType<typeof useBackupPage<R>>;
  family: BackupFamily<R>;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const { projectId, dialog, close, setParam } = page;
  const { plan } = family;
  const projects = useQuery({
    queryKey: ['project-available'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
  });
  const projectName = projects.data?.find((p) => p.id === projectId)?.name ?? '';
  return (
    <Card
      title={title}
      extra={
        <Select
          showSearch
          optionFilterProp="label"
          placeholder={t('backups.pickProject')}
          aria-label={t('backups.pickProject')}
          value={projectId || undefined}
          loading={projects.isLoading}
          options={(projects.data ?? []).map((p) => ({ value: p.id, label: p.name }))}
          onChange={(value: string) => setParam({ projectId: value, action: null })}
          style={{ width: 220, maxWidth: '50vw' }}
          data-testid={`${family.prefix}-project`}
        />
      }
      styles={{ body: { paddingTop: 0 } }}
    >
      {projectId ? children : <Empty description={t('backups.pickProject')} style={{ padding: 32 }} />}
      <Suspense fallback={null}>
        {projectId && dialog?.kind === 'create' && (projects.data || projects.isError) && (
          <CreateDialog
            prefix={family.prefix}
            title={family.createTitle}
            projectId={projectId}
            projectName={projectName}
            kinds={family.kinds}
            initialKinds={family.initialKinds}
            modulesKind={family.modulesKind}
            sizes={family.sizes}
            start={family.start}
            onClose={close}
          />
        )}
        {projectId && dialog?.kind === 'upload' && (
          <UploadDialog
            prefix={family.prefix}
            askCodeFirst={family.askCodeFirst}
            upload={family.upload}
            onUploaded={family.uploaded}
            onClose={close}
          />
        )}
        {projectId && dialog?.kind === 'download' && (
          <DownloadDialog
            prefix={family.prefix}
            name={dialog.row.name}
            sizeMb={dialog.row.size}
            fetchFile={(code, options) => family.download(dialog.row, code, options)}
            byLink={(code, fileName) => family.downloadByLink(dialog.row, code, fileName)}
            onClose={close}
          />
        )}
        {projectId && dialog?.kind === 'restore' && (
          <RestoreDialog
            prefix={family.prefix}
            name={dialog.row.name}
            kinds={family.kinds.filter((kind) => dialog.row.item[kind])}
            modulesKind={family.modulesKind}
            modules={family.modulesOf?.(dialog.row)}
            fixedRule={family.fixedRule}
            plan={plan && ((values) => plan(dialog.row, values))}
            start={(values) => family.restore(dialog.row, values)}
            onClose={close}
          />
        )}
      </Suspense>
    </Card>
  );
}
