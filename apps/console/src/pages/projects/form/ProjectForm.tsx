import type { ProjectView } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Card, Form, type FormInstance, Space } from 'antd';
import { lazy, Suspense, useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PATHS, pathTo } from '../../../app/paths';
import GrantForm from '../../../components/GrantForm';
import { toast } from '../../../services/feedback';
import { useUnusedLicence } from '../../../services/licence';
import { createProject, updateProject, uploadCertificates } from '../../../services/project';
import { isRequestError, reportError } from '../../../services/request';
import { createProjectFromTemplate, type TaskState } from '../../../services/templates';
import { mapFieldErrors } from '../../../utils/fieldErrors';
import { useOwnerOptions } from '../options';
import { PROJECTS_KEY } from '../useProjectLists';
import { BasicFields } from './BasicFields';
import { newCertificates } from './certificates';
import { MoreFields } from './MoreFields';
import { buildCreateBody, buildUpdateBody, CODE_FIELDS, formFieldFor, type ProjectFormValues } from './projectForm';

// The extension fields (their widgets, rules and texts) load after the form's own fields show.
const ProjectExtensionCard = lazy(() =>
  import('../../project-expand/ProjectExtensionCard').then((m) => ({ default: m.ProjectExtensionCard })),
);

import { SiteFields } from './SiteFields';

// Loaded when a template install starts, not with the form (weight/budgets.ts).
const TemplateInstallProgress = lazy(() =>
  import('./TemplateInstall').then((module) => ({ default: module.TemplateInstallProgress })),
);

export interface ProjectFormProps {
  isAdmin: boolean;
  initialValues: ProjectFormValues;
  /** The project being edited; absent when adding. */
  loaded?: ProjectView;
}

/** Add or edit a project (console.md §3, §5): saved with POST / PUT project, then the certificates. */
export function ProjectForm({ isAdmin, initialValues, loaded }: ProjectFormProps) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<ProjectFormValues>();
  const [saving, setSaving] = useState(false);
  /** The template install running for the project just created. */
  const [installing, setInstalling] = useState<string | null>(null);
  const isAdd = !loaded;
  const owner = Form.useWatch('user', form) ?? initialValues.user;
  const owners = useOwnerOptions(t, isAdmin);
  const pool = useUnusedLicence({ target: 'project', owner: isAdmin ? owner : undefined, except: loaded?.id });

  const showFieldErrors = (fields: Record<string, string>) => {
    const { fieldErrors, other } = mapFieldErrors(fields, formFieldFor);
    // dotted server paths are not typed names: set them through the untyped instance
    (form as FormInstance).setFields(fieldErrors);
    for (const text of other) toast.error(text);
  };

  const showFailure = (error: unknown) => {
    if (isRequestError(error) && error.fields && Object.keys(error.fields).length > 0) {
      showFieldErrors(error.fields);
    } else if (isRequestError(error) && error.code && CODE_FIELDS[error.code]) {
      showFieldErrors({ [CODE_FIELDS[error.code] as string]: error.message });
    } else reportError(error);
  };

  const onFinish = async (values: ProjectFormValues) => {
    const built = loaded ? buildUpdateBody(values, isAdmin, loaded) : buildCreateBody(values, isAdmin);
    if (!built.ok) {
      showFieldErrors(built.fields);
      return;
    }
    setSaving(true);
    let saved: ProjectView;
    let installTask: string | null = null;
    try {
      if (!loaded && built.body.projectType === 'template') {
        const created = await createProjectFromTemplate(built.body);
        saved = created;
        installTask = created.task.id;
      } else saved = loaded ? await updateProject(loaded.id, built.body) : await createProject(built.body);
    } catch (error) {
      showFailure(error);
      setSaving(false);
      return;
    }
    void queryClient.invalidateQueries({ queryKey: [PROJECTS_KEY] });
    void queryClient.invalidateQueries({ queryKey: ['licencePool'] });
    void queryClient.invalidateQueries({ queryKey: ['project', saved.id] });
    toast.success(t(isAdd ? 'project.added' : 'project.modified'));
    const files = values.isUseHttps ? newCertificates(values.certificates) : null;
    if (files) {
      try {
        await uploadCertificates({ id: saved.id, domain: saved.domain ?? '', ...files });
      } catch (error) {
        setSaving(false);
        showFailure(error);
        // the project exists now: further changes are edits of it
        if (isAdd) void navigate(pathTo('projectEdit', { id: saved.id }), { replace: true });
        return;
      }
    }
    setSaving(false);
    if (installTask) setInstalling(installTask);
    else void navigate(PATHS.projects);
  };

  const installEnded = useCallback(
    (task: TaskState) => {
      setInstalling(null);
      void queryClient.invalidateQueries({ queryKey: [PROJECTS_KEY] });
      if (task.status === 'success') {
        toast.success(t('templates.installed'));
        void navigate(PATHS.projects);
      } else {
        // The server removed the half-made project: the form stays, to try again.
        toast.error(t('templates.installFailed', { message: task.message ?? '' }));
      }
    },
    [navigate, queryClient, t],
  );

  return (
    <Form<ProjectFormValues>
      form={form}
      layout="horizontal"
      labelCol={{ flex: '160px' }}
      labelWrap
      initialValues={initialValues}
      onFinish={onFinish}
      onFinishFailed={({ errorFields }) => {
        const first = errorFields[0];
        if (first) form.scrollToField(first.name);
      }}
      onValuesChange={(changed: ProjectFormValues) => {
        if (changed.projectType === 'blank') form.setFieldValue('type', null);
        if (changed.advanced?.mediaLibraryPublicDirEnable === false) {
          form.setFieldValue(['advanced', 'mediaLibraryPublicDirFeature'], []);
        }
      }}
      data-testid="project-form"
    >
      <Card title={t(isAdd ? 'project.createTitle' : 'project.editTitle')} style={{ marginBottom: 16 }}>
        <BasicFields isAdd={isAdd} owners={isAdmin ? owners.options : null} ownersLoading={owners.loading} />
      </Card>
      <Card title={t('project.sectionGrant')} style={{ marginBottom: 16 }}>
        <GrantForm
          name="grant"
          pool={pool.data}
          previousStart={loaded?.grant?.startTime}
          parentLabel={pool.data?.parentKind}
        />
      </Card>
      <Card title={t('project.sectionSite')} style={{ marginBottom: 16 }}>
        <SiteFields />
      </Card>
      <Card title={t('project.sectionMore')} style={{ marginBottom: 16 }}>
        <MoreFields isAdd={isAdd} />
      </Card>
      <Suspense fallback={null}>
        <ProjectExtensionCard mode={isAdd ? 'create' : 'edit'} />
      </Suspense>
      {installing ? (
        <Suspense fallback={null}>
          <TemplateInstallProgress taskId={installing} onEnd={installEnded} />
        </Suspense>
      ) : null}
      <Space>
        <Button type="primary" htmlType="submit" loading={saving} data-testid="project-save">
          {t('common.submit')}
        </Button>
        <Button data-testid="project-cancel" onClick={() => void navigate(PATHS.projects)}>
          {t('project.cancel')}
        </Button>
      </Space>
    </Form>
  );
}
