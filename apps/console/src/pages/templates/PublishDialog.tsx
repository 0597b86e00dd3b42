import './texts';
import {
  COLLECTIONS,
  INDUSTRIES,
  type Industry,
  TEMPLATE_IMAGE_URL,
  TEMPLATE_LEFT_OUT,
  type TemplateView,
} from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Checkbox, Form, Input, Modal, Progress, Select, Space } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../services/feedback';
import { reportError, request } from '../../services/request';
import { type PublishInput, patchTemplate, publishTemplate, type TaskState } from '../../services/templates';
import { useTaskProgress } from '../projects/form/TemplateInstall';
import { industryLabel } from '../projects/options';
import { TemplateImagesField } from './TemplateImages';

/** The form's values: the cover as a list of at most one (one field component for both). */
type PublishValues = Omit<PublishInput, 'cover'> & { cover?: string[] };

/** The collections a template may carry (never the project's accounts), and those chosen at first. */
const LEFT_OUT: readonly string[] = TEMPLATE_LEFT_OUT;
const MODULES = COLLECTIONS.filter((collection) => !LEFT_OUT.includes(collection));
const DEFAULT_MODULES = ['dashboard', 'table', 'table_record', 'rule', 'report', 'flow'];

/** A publish task's progress (from the progress websocket); `onEnd` told how it ended. */
function PublishProgress({ taskId, onEnd }: { taskId: string; onEnd: (task: TaskState) => void }) {
  const { task } = useTaskProgress(taskId);
  const ended = task && task.status !== 'ongoing' ? task : undefined;
  useEffect(() => {
    if (ended) onEnd(ended);
  }, [ended, onEnd]);
  return <Progress percent={Math.floor((task?.progress ?? 0) * 100)} data-testid="template-publish-progress" />;
}

/** The card's values of a template being edited (its uploaded cover; a drawn one is none). */
function cardOf(template: TemplateView): Partial<PublishValues> {
  const cover = template.card_display.cover;
  return {
    name: template.name,
    industry: template.industry as Industry,
    developer: template.developer,
    contact: template.contact,
    intro: template.card_display.intro,
    description: template.template_description,
    cover: TEMPLATE_IMAGE_URL.test(cover) ? [cover] : [],
    images: template.images,
  };
}

/**
 * Publishes one of the caller's projects as a template (issue 14 §1): the card's fields, then the
 * `template.publish` task, followed until it ends. With `template`: edits that template's card.
 */
export default function PublishDialog({ onClose, template }: { onClose: () => void; template?: TemplateView }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<PublishValues>();
  const [taskId, setTaskId] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const projects = useQuery({
    queryKey: ['projectsAvailable'],
    queryFn: () => request<Array<{ id: string; name: string }>>('rest/spm/project/available'),
    enabled: !template,
  });

  const submit = async ({ cover, projectId, ...values }: PublishValues) => {
    setSaving(true);
    try {
      if (template) {
        await patchTemplate(template.id, { ...values, cover: cover?.[0] ?? '' });
        toast.success(t('templates.savedDone'));
        void queryClient.invalidateQueries({ queryKey: ['templates'] });
        onClose();
        return;
      }
      setTaskId((await publishTemplate({ ...values, projectId, cover: cover?.[0] ?? '' })).id);
    } catch (error) {
      reportError(error);
    } finally {
      setSaving(false);
    }
  };
  const published = useCallback(
    (task: TaskState) => {
      setTaskId(null);
      if (task.status === 'success') {
        toast.success(t('templates.publishedDone'));
        void queryClient.invalidateQueries({ queryKey: ['templates'] });
        onClose();
      } else toast.error(task.message ?? t('templates.publishFailed'));
    },
    [onClose, queryClient, t],
  );

  return (
    <Modal
      open
      title={t(template ? 'templates.edit' : 'templates.publish')}
      onCancel={onClose}
      onOk={() => form.submit()}
      okButtonProps={{ loading: saving || taskId !== null }}
      destroyOnHidden
    >
      <Form<PublishValues>
        form={form}
        layout="vertical"
        initialValues={template ? cardOf(template) : { modules: DEFAULT_MODULES, fileServer: true, html: true }}
        onFinish={(values) => void submit(values)}
      >
        {template ? null : (
          <Form.Item name="projectId" label={t('templates.project')} rules={[{ required: true }]}>
            <Select
              data-testid="template-publish-project"
              loading={projects.isPending}
              showSearch={{ optionFilterProp: 'label' }}
              options={(projects.data ?? []).map((p) => ({ value: p.id, label: `${p.name} (${p.id})` }))}
            />
          </Form.Item>
        )}
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
        <Form.Item name="cover" label={t('templates.cover')} extra={t('templates.coverHelp')}>
          <TemplateImagesField max={1} testId="template-publish-cover" />
        </Form.Item>
        <Form.Item name="description" label={t('templates.description')}>
          <Input.TextArea rows={4} maxLength={20000} />
        </Form.Item>
        <Form.Item name="images" label={t('templates.images')}>
          <TemplateImagesField testId="template-publish-images" />
        </Form.Item>
        {template ? null : (
          <>
            <Form.Item name="modules" label={t('templates.modules')} extra={t('templates.modulesHelp')}>
              <Select
                mode="multiple"
                data-testid="template-publish-modules"
                options={MODULES.map((value) => ({ value, label: value }))}
              />
            </Form.Item>
            <Space>
              <Form.Item name="fileServer" valuePropName="checked" noStyle>
                <Checkbox data-testid="template-publish-files">{t('templates.withFiles')}</Checkbox>
              </Form.Item>
              <Form.Item name="html" valuePropName="checked" noStyle>
                <Checkbox data-testid="template-publish-html">{t('templates.withHtml')}</Checkbox>
              </Form.Item>
            </Space>
          </>
        )}
      </Form>
      {taskId !== null ? <PublishProgress taskId={taskId} onEnd={published} /> : null}
    </Modal>
  );
}
