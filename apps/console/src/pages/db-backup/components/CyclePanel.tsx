import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { type DbBackupCycleView, JobState, PERIODIC_BACKUP_LIMITS as L } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Form, Input, InputNumber, Modal, Space, Switch, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ScrollTable } from '../../../components/ScrollTable';
import { translateMessage } from '../../../i18n';
import { type CycleInput, createCycle, deleteCycle, listCycles, updateCycle } from '../../../services/dbBackupCycles';
import { toast } from '../../../services/feedback';
import { isRequestError } from '../../../services/request';
import { formatDateTime } from '../../../utils/dateTime';
import { testId } from '../../../utils/testId';

export const cyclesKey = (projectId: string) => ['db-backup-cycles', projectId];
const RESULT_COLOUR = {
  [JobState.Running]: 'processing',
  [JobState.Succeeded]: 'success',
  [JobState.Failed]: 'error',
} as const;

/** Add or edit a cycle: name, every N hours, backups kept, enabled; the server's field messages shown on their fields. */
function CycleDialog({
  projectId,
  cycle,
  onClose,
}: {
  projectId: string;
  cycle: DbBackupCycleView | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<CycleInput>();
  const [saving, setSaving] = useState(false);
  const save = async () => {
    // Invalid fields show their messages; nothing is sent.
    const values = await form.validateFields().catch(() => undefined);
    if (!values) return;
    setSaving(true);
    try {
      if (cycle) await updateCycle(projectId, cycle.id, values);
      else await createCycle(projectId, values);
      toast.success(t('cycles.saved'));
      await queryClient.invalidateQueries({ queryKey: cyclesKey(projectId) });
      onClose();
    } catch (error) {
      if (isRequestError(error) && error.fields) {
        form.setFields(
          Object.entries(error.fields).map(([name, message]) => ({
            name: name as keyof CycleInput,
            errors: [message],
          })),
        );
      }
    } finally {
      setSaving(false);
    }
  };
  const whole = (min: number, max: number, message: string) => ({
    validator: (_: unknown, value: unknown) =>
      typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max
        ? Promise.resolve()
        : Promise.reject(new Error(message)),
  });
  return (
    <Modal
      open
      title={t(cycle ? 'cycles.editTitle' : 'cycles.addTitle')}
      onCancel={onClose}
      onOk={() => void save()}
      confirmLoading={saving}
      okButtonProps={testId('cycle-save')}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        initialValues={
          cycle
            ? { name: cycle.name, hours: cycle.hours, keep: cycle.keep, enabled: cycle.enabled }
            : { name: '', hours: 24, keep: L.keepDefault, enabled: true }
        }
      >
        <Form.Item
          name="name"
          label={t('cycles.name')}
          rules={[
            { required: true, whitespace: true, message: t('cycles.nameRequired') },
            { max: L.nameMax, message: t('cycles.nameTooLong', { max: L.nameMax }) },
          ]}
        >
          <Input maxLength={L.nameMax} showCount data-testid="cycle-name" />
        </Form.Item>
        <Form.Item
          name="hours"
          label={t('cycles.hours')}
          rules={[whole(L.hoursMin, L.hoursMax, t('cycles.hoursRange', { min: L.hoursMin, max: L.hoursMax }))]}
        >
          {/* No min/max here: antd would turn a typed 0 into 1 silently; the rule refuses it with a message. */}
          <InputNumber precision={0} style={{ width: 160 }} data-testid="cycle-hours" />
        </Form.Item>
        <Form.Item
          name="keep"
          label={t('cycles.keep')}
          extra={t('cycles.keepHelp')}
          rules={[whole(L.keepMin, L.keepMax, t('cycles.keepRange', { min: L.keepMin, max: L.keepMax }))]}
        >
          <InputNumber precision={0} style={{ width: 160 }} data-testid="cycle-keep" />
        </Form.Item>
        <Form.Item name="enabled" label={t('cycles.enabled')} valuePropName="checked">
          <Switch data-testid="cycle-enabled" />
        </Form.Item>
      </Form>
    </Modal>
  );
}

/**
 * The database backup dialog's 'Periodic backups' tab (issue 13 §3): a project's cycles with their
 * next run and last result; add, edit, enable or disable, delete.
 */
export function CyclePanel({ projectId }: { projectId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [modal, modalHolder] = Modal.useModal();
  const [editing, setEditing] = useState<DbBackupCycleView | null | 'new'>(null);
  const cycles = useQuery({ queryKey: cyclesKey(projectId), queryFn: () => listCycles(projectId) });
  const refresh = () => queryClient.invalidateQueries({ queryKey: cyclesKey(projectId) });

  const toggle = async (cycle: DbBackupCycleView, enabled: boolean) => {
    try {
      await updateCycle(projectId, cycle.id, { enabled });
      toast.success(t('cycles.saved'));
    } finally {
      await refresh();
    }
  };
  const remove = (cycle: DbBackupCycleView) => {
    modal.confirm({
      title: t('cycles.deleteConfirm', { name: cycle.name }),
      okButtonProps: testId('cycle-delete-ok', { danger: true }),
      onOk: async () => {
        try {
          await deleteCycle(projectId, cycle.id);
          toast.success(t('cycles.deleted'));
        } finally {
          await refresh();
        }
      },
    });
  };

  const columns: ColumnsType<DbBackupCycleView> = [
    {
      title: t('cycles.name'),
      dataIndex: 'name',
      render: (name: string, row) => <span data-testid={`cycle-name-${row.id}`}>{name}</span>,
    },
    { title: t('cycles.hours'), dataIndex: 'hours', render: (hours: number) => t('cycles.every', { hours }) },
    { title: t('cycles.keep'), dataIndex: 'keep' },
    {
      title: t('cycles.enabled'),
      dataIndex: 'enabled',
      render: (enabled: boolean, row) => (
        <Switch
          size="small"
          checked={enabled}
          onChange={(value) => void toggle(row, value)}
          data-testid={`cycle-toggle-${row.id}`}
        />
      ),
    },
    {
      title: t('cycles.nextRun'),
      dataIndex: 'nextRunTime',
      render: (value: string | null, row) => (
        <span data-testid={`cycle-next-${row.id}`}>{value ? formatDateTime(value) : '—'}</span>
      ),
    },
    {
      title: t('cycles.lastResult'),
      dataIndex: 'lastResult',
      render: (result: DbBackupCycleView['lastResult'], row) => (
        <div data-testid={`cycle-result-${row.id}`}>
          {result ? (
            <>
              <Tag color={RESULT_COLOUR[result.status]}>{t(`cycles.result.${result.status}`)}</Tag>
              <Typography.Text type="secondary">{formatDateTime(result.endTime ?? row.lastRunTime)}</Typography.Text>
              {result.status === JobState.Failed && result.message ? (
                <div>
                  <Typography.Text type="danger">{translateMessage(result.message)}</Typography.Text>
                </div>
              ) : null}
            </>
          ) : (
            <Typography.Text type="secondary">{t('cycles.never')}</Typography.Text>
          )}
        </div>
      ),
    },
    {
      title: t('cycles.actions'),
      key: 'actions',
      render: (_: unknown, row) => (
        <Space size={0}>
          <Button
            type="link"
            icon={<EditOutlined />}
            onClick={() => setEditing(row)}
            {...testId(`cycle-edit-${row.id}`)}
          >
            {t('cycles.edit')}
          </Button>
          <Button
            type="link"
            danger
            icon={<DeleteOutlined />}
            onClick={() => remove(row)}
            {...testId(`cycle-delete-${row.id}`)}
          >
            {t('cycles.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div data-testid="cycle-panel">
      {modalHolder}
      <div style={{ marginBottom: 12 }}>
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} {...testId('cycle-add')}>
          {t('cycles.add')}
        </Button>
      </div>
      <ScrollTable<DbBackupCycleView>
        rowKey="id"
        size="middle"
        loading={cycles.isPending}
        dataSource={cycles.data ?? []}
        columns={columns}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('cycles.empty') }}
      />
      {editing ? (
        <CycleDialog
          projectId={projectId}
          cycle={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      ) : null}
    </div>
  );
}
