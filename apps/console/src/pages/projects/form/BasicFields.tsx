import { PROJECT_NAME_MAX, projectIdSchema, type TenantView } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Radio, Select } from 'antd';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { translateMessage } from '../../../i18n';
import { request } from '../../../services/request';
import { useSessionUser } from '../../../services/session';
import { industryOptions } from '../options';

/** The first rule a project id breaks (shared projectIdSchema), or null; empty is fine (generated). */
export function projectIdMessage(id: string | undefined): string | null {
  if (!id) return null;
  const parsed = projectIdSchema.safeParse(id);
  return parsed.success ? null : translateMessage(parsed.error.issues[0]?.message ?? 'project.idChars');
}

export interface BasicFieldsProps {
  isAdd: boolean;
  owners: { value: string; label: string }[] | null;
  ownersLoading: boolean;
}

// Loaded when a template is chosen, not with the form (weight/budgets.ts).
const TemplatePicker = lazy(() => import('./TemplatePicker'));

/** Id (add only), name, industry, owner (administrator), blank or template project. */
export function BasicFields({ isAdd, owners, ownersLoading }: BasicFieldsProps) {
  const { t } = useTranslation();
  const form = Form.useFormInstance();
  const template = Form.useWatch('projectType', form) === 'template';
  // A tenant is offered only the project types its permissions allow (the server refuses the others).
  const user = useSessionUser();
  const tenant = useQuery({
    queryKey: ['tenant', user?.userId],
    queryFn: () => request<TenantView>(`rest/spm/user/${encodeURIComponent(user?.userId ?? '')}`, { noMessage: true }),
    enabled: isAdd && user !== null && !user.isAdmin,
    staleTime: 60_000,
  });
  const permissions = tenant.data?.permissions;
  const blankAllowed = permissions?.blankProjects ?? true;
  const templatesAllowed = permissions ? permissions.marketTemplates || permissions.ownTemplates : true;
  return (
    <>
      {isAdd ? (
        <Form.Item
          name="id"
          label={t('project.id')}
          extra={t('project.idHelp')}
          rules={[
            {
              validator: async (_rule, value: string | undefined) => {
                const message = projectIdMessage(value);
                if (message) throw new Error(message);
              },
            },
          ]}
        >
          <Input data-testid="project-id" maxLength={32} autoComplete="off" />
        </Form.Item>
      ) : null}
      <Form.Item
        name="name"
        label={t('project.name')}
        rules={[{ required: true, whitespace: true, message: t('project.nameRequired') }]}
      >
        <Input data-testid="project-name" maxLength={PROJECT_NAME_MAX} />
      </Form.Item>
      <Form.Item
        name="industry"
        label={t('project.industry')}
        rules={[{ required: true, message: t('project.industryRequired') }]}
      >
        <Select
          data-testid="project-industry"
          options={industryOptions(t)}
          placeholder={t('project.industryRequired')}
        />
      </Form.Item>
      {owners ? (
        <Form.Item
          name="user"
          label={t('project.owner')}
          rules={[{ required: true, message: t('project.ownerRequired') }]}
        >
          <Select
            data-testid="project-owner"
            loading={ownersLoading}
            showSearch={{ optionFilterProp: 'label' }}
            options={owners}
          />
        </Form.Item>
      ) : null}
      <Form.Item name="projectType" label={t('project.projectType')} rules={[{ required: true }]}>
        <Radio.Group>
          <Radio value="blank" disabled={!blankAllowed} data-testid="project-projectType-blank">
            {t('project.type.blank')}
          </Radio>
          <Radio value="template" disabled={!templatesAllowed} data-testid="project-projectType-template">
            {t('project.type.template')}
          </Radio>
        </Radio.Group>
      </Form.Item>
      {template ? (
        <Form.Item
          name="type"
          label={t('project.template')}
          extra={t('project.templateHelp')}
          rules={[{ required: true, whitespace: true, message: t('project.templateRequired') }]}
        >
          <LazyTemplatePicker />
        </Form.Item>
      ) : null}
    </>
  );
}

/** The template picker once its code has loaded (a Form.Item passes value and onChange through). */
function LazyTemplatePicker(props: { value?: string | null; onChange?: (id: string) => void }) {
  const { t } = useTranslation();
  return (
    <Suspense fallback={t('project.templateHelp')}>
      <TemplatePicker {...props} />
    </Suspense>
  );
}
