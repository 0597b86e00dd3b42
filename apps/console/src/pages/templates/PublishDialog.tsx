import './texts';
import { INDUSTRIES, type Industry } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Form, Input, Modal, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { reportError, request } from '../../services/request';
import { getTask, type PublishInput, publishTemplate } from '../../services/templates';
import { industryLabel } from '../projects/options';

/**
 * Publishes one of the caller's projects as a template (issue 14 §1): the card's fields, then the
 * `template.publish` task, followed until it ends.
 */
export default function PublishDialog({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PublishInput>();
  const [progress, setProgress] = useState<number | null>(null);
  const projects = useQuery({
    queryKey: ['projectsAvailable'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
  });

  const submit = async (values: PublishInput) => {
    let taskId: string;
    try {
      taskId = (await publishTemplate(values)).id;
    } catch (error) {
      reportError(error);
      return;
    }
    setProgress(0);
    for (;;) {
      const task = await getTask(taskId).catch(() => undefined);
      if (task && task.status !== 'ongoing') {
        setProgress(null);
        if (task.status === 'success') {
          toast.success(t('templates.publishedDone'));
          void queryClient.invalidateQueries({ queryKey: ['templates'] });
          onClose();
        } else toast.error(task.message ?? t('templates.publishFailed'));
        return;
      }
      setProgress(task?.progress ?? 0);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  };

  return (
    <Modal
      open
      title={t('templates.publish')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: progress !== null }}
      destroyOnHidden
    >
      <Form<PublishInput> form={form} layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="projectId" label={t('templates.project')} rules={[{ required: true }]}>
          <Select
            data-testid="template-publish-project"
            loading={projects.isPending}
            showSearch={{ optionFilterProp: 'label' }}
            options={(projects.data ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
          />
        </Form.Item>
        <Form.Item name="name" label={t('templates.name')} rules={[{ required: true, whitespace: true }]}>
          <Input maxLength={64} data-testid="template-publish-name" />
        </Form.Item>
        <Form.Item name="industry" label={t('templates.industry')} rules={[{ required: true }]}>
          <Select<Industry>
            data-testid="template-publish-industry"
            options={INDUSTRIES.map((value) => ({ value, label: industryLabel(t, value) }))}
          />
        </Form.Item>
        <Form.Item name="developer" label={t('templates.developer')} rules={[{ required: true, whitespace: true }]}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.Item name="contact" label={t('templates.contact')}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.Item name="intro" label={t('templates.intro')}>
          <Input maxLength={256} />
        </Form.Item>
        <Form.Item name="description" label={t('templates.description')}>
          <Input.TextArea rows={4} maxLength={20000} />
        </Form.Item>
      </Form>
      {progress !== null ? <progress max={100} value={Math.round(progress * 100)} style={{ width: '100%' }} /> : null}
    </Modal>
  );
}
