import { useQuery } from '@tanstack/react-query';
import { Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { getProject } from '../../../services/project';
import { useSessionUser } from '../../../services/session';
import { ProjectForm } from './ProjectForm';
import { newProjectValues, toFormValues } from './projectForm';

/**
 * /app/model/Project/add (`?type=<template id>` preselects a template, as the template gallery's
 * "use" does) and /app/model/Project/{id}/edit.
 */
export default function ProjectFormPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const [search] = useSearchParams();
  const user = useSessionUser();
  const isAdmin = user?.isAdmin === true;
  const project = useQuery({
    queryKey: ['project', id],
    queryFn: () => getProject(id ?? ''),
    enabled: id !== undefined,
  });

  if (id === undefined) {
    return (
      <ProjectForm isAdmin={isAdmin} initialValues={newProjectValues({ isAdmin, template: search.get('type') })} />
    );
  }
  if (project.isPending) return <Skeleton active />;
  if (!project.data) return <Result status="404" title={t('project.notFound')} />;
  return (
    <ProjectForm
      key={project.data.id}
      isAdmin={isAdmin}
      initialValues={toFormValues(project.data)}
      loaded={project.data}
    />
  );
}
