import './texts';
import { type PlatformBackupView, sha256Hex } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Alert,
  Button,
  type ButtonProps,
  Card,
  Form,
  Input,
  Modal,
  Popconfirm,
  Progress,
  Result,
  Space,
  Upload,
} from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../components/ScrollTable';
import { toast } from '../../services/feedback';
import { navigateTo } from '../../services/navigation';
import {
  deletePlatformBackup,
  listPlatformBackups,
  PLATFORM_BACKUPS_KEY,
  platformBackupDownloadUrl,
  platformRestoreStatus,
  restorePlatform,
  startPlatformBackup,
  taskOf,
  uploadPlatformBackup,
} from '../../services/platformBackup';
import { isRequestError, LOGIN_MESSAGE_KEY, reportError } from '../../services/request';
import { clearUser } from '../../services/session';
import { formatDateTime } from '../../utils/dateTime';

const POLL_MS = 1000;
const sizeText = (bytes: number) =>
  bytes < 1024 * 1024 ? `${Math.max(1, Math.round(bytes / 1024))} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;

/** /app/settings/platform-backup: the whole platform backed up and restored (issue 13 §4), administrator only. */
export default function PlatformBackupPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const backups = useQuery({ queryKey: PLATFORM_BACKUPS_KEY, queryFn: listPlatformBackups });
  const [task, setTask] = useState<{ id: string; progress: number } | null>(null);
  const [uploading, setUploading] = useState<number | null>(null);
  const [restoring, setRestoring] = useState<string | null>(null);
  const [phase, setPhase] = useState<{ state: 'restoring' | 'failed'; reason?: string } | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: PLATFORM_BACKUPS_KEY });

  // The backup task, polled until it ends.
  useEffect(() => {
    if (!task) return;
    const timer = setInterval(() => {
      taskOf(task.id).then((state) => {
        if (state.status === 'ongoing') return setTask({ id: task.id, progress: state.progress });
        setTask(null);
        if (state.status === 'success') toast.success(t('platform.done'));
        else toast.error(state.message || t('request.failed'));
        void refresh();
      }, reportError);
    }, POLL_MS);
    return () => clearInterval(timer);
  });

  // The restore, polled until it ends (the server answers this one call meanwhile).
  useEffect(() => {
    if (phase?.state !== 'restoring') return;
    const timer = setInterval(() => {
      platformRestoreStatus().then(
        (status) => {
          if (status.state === 'succeeded') {
            // Every session ended with the restore: the login page says why it is shown.
            try {
              sessionStorage.setItem(LOGIN_MESSAGE_KEY, t('platform.restored'));
            } catch {
              // no storage: the login page shows without the message
            }
            clearUser();
            navigateTo('/login', { replace: true });
          } else if (status.state === 'failed') setPhase({ state: 'failed', reason: status.reason ?? '' });
        },
        () => undefined,
      );
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [phase, t]);

  if (phase?.state === 'restoring') {
    return (
      <Result
        status="info"
        title={t('platform.restoringNow')}
        extra={<Progress percent={99} status="active" showInfo={false} />}
      />
    );
  }

  const backUp = async () => {
    try {
      const { taskId } = await startPlatformBackup();
      setTask({ id: taskId, progress: 0 });
    } catch (error) {
      reportError(error);
    }
  };

  const upload = async (file: File) => {
    setUploading(0);
    try {
      await uploadPlatformBackup(file, (fraction) => setUploading(Math.round(fraction * 100)));
      toast.success(t('platform.uploaded'));
      await refresh();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : String(error));
    } finally {
      setUploading(null);
    }
  };

  return (
    <Card title={t('platform.title')} style={{ maxWidth: 1100 }}>
      <Space direction="vertical" size="middle" style={{ width: '100%' }}>
        <Alert type="info" showIcon message={t('platform.intro')} />
        {phase?.state === 'failed' && (
          <Alert
            type="error"
            showIcon
            closable
            onClose={() => setPhase(null)}
            data-testid="platform-restore-failed"
            message={t('platform.restoreFailed', { reason: phase.reason ?? '' })}
          />
        )}
        <Space wrap>
          <Button type="primary" onClick={backUp} loading={task !== null} data-testid="platform-backup-now">
            {t('platform.backupNow')}
          </Button>
          <Upload
            accept=".zip"
            showUploadList={false}
            beforeUpload={(file) => {
              void upload(file);
              return false;
            }}
          >
            <Button loading={uploading !== null} data-testid="platform-upload">
              {t('platform.upload')}
            </Button>
          </Upload>
        </Space>
        {task && (
          <div data-testid="platform-backup-running">
            {t('platform.running')}
            <Progress percent={Math.round(task.progress * 100)} status="active" />
          </div>
        )}
        {uploading !== null && (
          <Progress percent={uploading} format={() => t('platform.uploading', { percent: uploading })} />
        )}
        <ScrollTable<PlatformBackupView>
          rowKey="name"
          loading={backups.isPending}
          dataSource={backups.data ?? []}
          pagination={false}
          scroll={{ x: 640 }}
          locale={{ emptyText: t('platform.empty') }}
          columns={[
            { title: t('platform.name'), dataIndex: 'name', ellipsis: true },
            { title: t('platform.size'), dataIndex: 'size', width: 110, render: (size: number) => sizeText(size) },
            {
              title: t('platform.time'),
              dataIndex: 'createTime',
              width: 190,
              render: (time: string) => formatDateTime(time),
            },
            {
              title: t('platform.actions'),
              key: 'actions',
              width: 220,
              render: (_: unknown, row) => (
                <Space size="small">
                  <a href={platformBackupDownloadUrl(row.name)} download={row.name}>
                    {t('platform.download')}
                  </a>
                  <Button
                    type="link"
                    size="small"
                    onClick={() => setRestoring(row.name)}
                    data-testid="platform-restore"
                  >
                    {t('platform.restore')}
                  </Button>
                  <Popconfirm
                    title={t('platform.deleteConfirm', { name: row.name })}
                    onConfirm={() =>
                      deletePlatformBackup(row.name).then(() => {
                        toast.success(t('platform.deleted'));
                        return refresh();
                      }, reportError)
                    }
                  >
                    <Button type="link" size="small" danger>
                      {t('platform.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Space>
      <RestoreDialog
        name={restoring}
        onClose={() => setRestoring(null)}
        onStarted={() => {
          setRestoring(null);
          setPhase({ state: 'restoring' });
        }}
      />
    </Card>
  );
}

function RestoreDialog({
  name,
  onClose,
  onStarted,
}: {
  name: string | null;
  onClose: () => void;
  onStarted: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ password: string }>();
  const [busy, setBusy] = useState(false);
  const okProps: ButtonProps & { 'data-testid': string } = {
    danger: true,
    loading: busy,
    'data-testid': 'platform-restore-ok',
  };
  const submit = async ({ password }: { password: string }) => {
    if (!name) return;
    setBusy(true);
    try {
      await restorePlatform(name, sha256Hex(password));
      form.resetFields();
      onStarted();
    } catch (error) {
      if (isRequestError(error) && error.status === 400)
        form.setFields([{ name: 'password', errors: [error.message] }]);
      else reportError(error);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Modal
      open={name !== null}
      title={t('platform.restoreTitle', { name: name ?? '' })}
      okText={t('platform.restore')}
      okButtonProps={okProps}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Alert type="warning" showIcon message={t('platform.restoreWarning')} style={{ marginBottom: 16 }} />
      <Form form={form} layout="vertical" onFinish={submit}>
        <Form.Item
          name="password"
          label={t('platform.passwordLabel')}
          rules={[{ required: true, message: t('platform.passwordRequired') }]}
        >
          <Input.Password autoComplete="current-password" data-testid="platform-restore-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
