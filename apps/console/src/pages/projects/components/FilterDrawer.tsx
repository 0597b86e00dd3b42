import { Button, DatePicker, Drawer, Form, Input, Radio, Select, Space } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { industryOptions } from '../options';
import { cleanFilter, type ProjectFilter } from '../projectFilter';

interface FilterFormValues extends Omit<ProjectFilter, 'status'> {
  status?: boolean | 'all';
}

export interface FilterDrawerProps {
  open: boolean;
  value: ProjectFilter;
  /** Owner choices; the owner field shows only for the administrator. */
  owners: { value: string; label: string }[] | null;
  onApply: (filter: ProjectFilter) => void;
  onClose: () => void;
}

/** The advanced filter, a drawer from the top with reset and confirm (console.md §2). */
export function FilterDrawer({ open, value, owners, onApply, onClose }: FilterDrawerProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FilterFormValues>();

  useEffect(() => {
    if (open) {
      form.resetFields();
      form.setFieldsValue({ ...value, status: value.status ?? 'all' });
    }
  }, [open, value, form]);

  const confirm = () => {
    const values = form.getFieldsValue();
    onApply(cleanFilter({ ...values, status: values.status === 'all' ? undefined : values.status }));
  };

  return (
    <Drawer
      placement="top"
      size={280}
      open={open}
      onClose={onClose}
      title={t('project.filterTitle')}
      extra={
        <Space>
          <Button data-testid="project-filter-reset" onClick={() => onApply({})}>
            {t('project.filterReset')}
          </Button>
          <Button type="primary" data-testid="project-filter-confirm" onClick={confirm}>
            {t('project.filterConfirm')}
          </Button>
        </Space>
      }
    >
      <div data-testid="project-filter-drawer">
        <Form<FilterFormValues> form={form} layout="inline" onFinish={confirm} style={{ rowGap: 12 }}>
          <Form.Item name="name" label={t('project.name')}>
            <Input data-testid="project-filter-name" allowClear style={{ width: 200 }} />
          </Form.Item>
          <Form.Item name="status" label={t('project.status')}>
            <Radio.Group optionType="button">
              <Radio value="all" data-testid="project-filter-status-all">
                {t('project.all')}
              </Radio>
              <Radio value={true} data-testid="project-filter-status-enabled">
                {t('project.enabled')}
              </Radio>
              <Radio value={false} data-testid="project-filter-status-disabled">
                {t('project.disabled')}
              </Radio>
            </Radio.Group>
          </Form.Item>
          <Form.Item name="industry" label={t('project.industry')}>
            <Select
              data-testid="project-filter-industry"
              allowClear
              options={industryOptions(t)}
              style={{ width: 180 }}
            />
          </Form.Item>
          {owners ? (
            <Form.Item name="user" label={t('project.owner')}>
              <Select
                data-testid="project-filter-owner"
                allowClear
                showSearch={{ optionFilterProp: 'label' }}
                options={owners}
                style={{ width: 200 }}
              />
            </Form.Item>
          ) : null}
          <Form.Item
            name="createTime"
            label={t('project.createTime')}
            getValueProps={(range: unknown) => ({
              value: Array.isArray(range) ? range.map((d: string) => dayjs(d)) : null,
            })}
            normalize={(range: [Dayjs | null, Dayjs | null] | null) =>
              range?.[0] && range[1] ? [range[0].format('YYYY-MM-DD'), range[1].format('YYYY-MM-DD')] : undefined
            }
          >
            <DatePicker.RangePicker data-testid="project-filter-createTime" />
          </Form.Item>
          <button type="submit" hidden aria-hidden />
        </Form>
      </div>
    </Drawer>
  );
}
