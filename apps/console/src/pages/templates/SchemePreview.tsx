import './texts';
import { useQuery } from '@tanstack/react-query';
import { Card, Result, Skeleton } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { pathTo } from '../../app/paths';
import { getTemplate } from '../../services/templates';
import { TemplatePreviewBody } from './TemplatePreview';

/** /app/schemepreview?id=<template id>: the solution preview as a page (console.md §2). */
export default function SchemePreviewPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const id = search.get('id') ?? search.get('schemaId') ?? '';
  const template = useQuery({ queryKey: ['template', id], queryFn: () => getTemplate(id), enabled: id !== '' });
  if (id !== '' && template.isPending) return <Skeleton active />;
  if (!template.data) return <Result status="404" title={t('templates.notFound')} />;
  return (
    <Card>
      <TemplatePreviewBody
        template={template.data}
        onUse={(chosen) => void navigate(pathTo('projectAdd', { type: chosen.id }))}
      />
    </Card>
  );
}
