import { EditOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Form, Modal } from 'antd';
import { useState } from 'react';
import { toast } from '../../services/feedback';
import { isRequestError, reportError } from '../../services/request';
import { batchChangeProjects, useProjectExpand } from './api';
import { ExtensionFields } from './ExtensionFields';
import { useExpandText } from './texts';

/**
 * Batch change (console.md §2 settings/project): the batch-changeable extension fields set on every
 * selected project at once (PATCH project/_batch; the fields left empty are not sent).
 */
export function BatchChangeButton({ ids, listKey }: { ids: readonly string[]; listKey: string }) {
  const text = useExpandText();
  const queryClient = useQueryClient();
  const { data: expand } = useProjectExpand();
  const [open, setOpen] = useState(false);
  const [saving, setSaving] = useState(false);
  const [form] = Form.useForm<{ extra?: Record<string, unknown> }>();
  const fields = expand?.batchChangeFields ?? [];
  if (!expand || fields.length === 0) return null;

  const submit = async () => {
    const extra = Object.fromEntries(
      Object.entries(form.getFieldValue('extra') ?? {}).filter(([, value]) => value !== undefined),
    );
    if (Object.keys(extra).length === 0) return setOpen(false);
    setSaving(true);
    try {
      const result = await batchChangeProjects({ ids: [...ids], extra });
      toast.success(result.message);
      setOpen(false);
      form.resetFields();
      await queryClient.invalidateQueries({ queryKey: [listKey] });
    } catch (error) {
      if (isRequestError(error) && error.fields)
        form.setFields(
          Object.entries(error.fields).map(([path, message]) => ({ name: path.split('.'), errors: [message] })),
        );
      else reportError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Button
        icon={<EditOutlined />}
        disabled={ids.length === 0}
        data-testid="project-batch-change"
        onClick={() => setOpen(true)}
      >
        {text('projectExpand.ui.batchChange')}
      </Button>
      <Modal
        open={open}
        title={text('projectExpand.ui.batchChange')}
        onCancel={() => setOpen(false)}
        onOk={() => void submit()}
        confirmLoading={saving}
        destroyOnHidden
      >
        <Form form={form} layout="vertical" data-testid="project-batch-change-form">
          <ExtensionFields expand={expand} mode="batch" only={fields} />
        </Form>
      </Modal>
    </>
  );
}
