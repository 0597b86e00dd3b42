import './texts';
import { INDUSTRIES, type Industry, type TemplateView } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Input, Popconfirm, Row, Select, Space, Spin, Tag, Typography } from 'antd';
import { lazy, Suspense, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { pathTo } from '../../app/paths';
import { toast } from '../../services/feedback';
import { deleteTemplate, importTemplate, listTemplates, packageLink, patchTemplate } from '../../services/templates';
import { industryLabel } from '../projects/options';
import SchemePreview from './SchemePreview';
import { TemplatePreviewModal } from './TemplatePreview';

// Loaded when opened (weight/budgets.ts).
const PublishDialog = lazy(() => import('./PublishDialog'));

const CARD_STYLE = `
.gantry-template-card .gantry-template-actions { opacity: 0; transition: opacity .2s; }
.gantry-template-card:hover .gantry-template-actions,
.gantry-template-card:focus-within .gantry-template-actions { opacity: 1; }
`;

/**
 * /app/templates: the solution template gallery (console.md §2). Searched by name and by industry;
 * each card shows its cover, developer and intro, and on hover Preview (a full-screen modal with the
 * schemepreview fields) and Use (the create-project form with the template chosen).
 */
export default function TemplatesPage() {
  // /app/schemepreview is the same module (one chunk set for both routes: weight/budgets.ts).
  return useLocation().pathname.endsWith('/schemepreview') ? <SchemePreview /> : <Gallery />;
}

function Gallery() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [name, setName] = useState('');
  const [industry, setIndustry] = useState<Industry | ''>('');
  const [previewed, setPreviewed] = useState<TemplateView | null>(null);
  const [publishing, setPublishing] = useState(false);
  const [editing, setEditing] = useState<TemplateView | null>(null);
  const templates = useQuery({
    queryKey: ['templates', name, industry],
    queryFn: ({ signal }) => listTemplates({ name, industry }, signal),
    placeholderData: (previous) => previous,
  });
  /** Use: the project form with the template chosen (projectType 'choose solution template'). */
  const use = (template: TemplateView) => void navigate(pathTo('projectAdd', { type: template.id }));
  const changed = () => void templates.refetch();
  const setPublished = async (template: TemplateView, published: boolean) => {
    await patchTemplate(template.id, { published });
    changed();
  };
  const [importing, setImporting] = useState(false);
  // A plain file input (antd's Upload would weigh on the gallery's first load: weight/budgets.ts).
  const importInput = useRef<HTMLInputElement>(null);
  /** A package exported from this or another server: checked whole by the server, then listed. */
  const importFile = (file: File) => {
    setImporting(true);
    importTemplate(file)
      .then(() => {
        toast.success(t('templates.importedDone'));
        changed();
      })
      .catch(() => undefined)
      .finally(() => setImporting(false));
  };
  const remove = async (template: TemplateView) => {
    await deleteTemplate(template.id);
    toast.success(t('templates.deleted'));
    changed();
  };

  /** The owner's actions: unpublish or publish again, export the package, delete (not built-ins). */
  const mineActions = (template: TemplateView) => {
    const link = packageLink(template);
    return [
      <Button
        key="published"
        type="link"
        size="small"
        onClick={() => void setPublished(template, !template.published)}
        data-testid={`template-toggle-${template.id}`}
      >
        {t(template.published ? 'templates.unpublish' : 'templates.republish')}
      </Button>,
      ...(link
        ? [
            <Button key="export" type="link" size="small" href={link} data-testid={`template-export-${template.id}`}>
              {t('templates.export')}
            </Button>,
          ]
        : []),
      ...(template.source === 'builtin'
        ? []
        : [
            <Button
              key="edit"
              type="link"
              size="small"
              onClick={() => setEditing(template)}
              data-testid={`template-edit-${template.id}`}
            >
              {t('templates.edit')}
            </Button>,
            <Popconfirm key="delete" title={t('templates.deleteConfirm')} onConfirm={() => remove(template)}>
              <Button type="link" size="small" danger data-testid={`template-delete-${template.id}`}>
                {t('templates.delete')}
              </Button>
            </Popconfirm>,
          ]),
    ];
  };

  return (
    <Card
      title={t('templates.title')}
      extra={
        <Space>
          <input
            ref={importInput}
            type="file"
            accept=".zip,application/zip"
            hidden
            data-testid="template-import-file"
            onChange={(event) => {
              const file = event.target.files?.[0];
              event.target.value = '';
              if (file) importFile(file);
            }}
          />
          <Button loading={importing} onClick={() => importInput.current?.click()} data-testid="template-import">
            {t('templates.import')}
          </Button>
          <Button onClick={() => setPublishing(true)} data-testid="template-publish">
            {t('templates.publish')}
          </Button>
        </Space>
      }
    >
      <style>{CARD_STYLE}</style>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('templates.searchName')}
          onSearch={(value) => setName(value)}
          style={{ width: 280 }}
          data-testid="templates-search"
          aria-label={t('templates.searchName')}
        />
        <Select<Industry | ''>
          value={industry}
          onChange={setIndustry}
          style={{ width: 200 }}
          data-testid="templates-industry"
          aria-label={t('templates.industry')}
          options={[
            { value: '', label: t('templates.allIndustries') },
            ...INDUSTRIES.map((value) => ({ value, label: industryLabel(t, value) })),
          ]}
        />
      </Space>
      <Spin spinning={templates.isFetching}>
        {templates.data && templates.data.length === 0 ? (
          <Empty description={t('templates.empty')} />
        ) : (
          <Row gutter={[16, 16]} data-testid="templates-grid">
            {(templates.data ?? []).map((template) => (
              <Col key={template.id} xs={24} sm={12} md={8} xl={6} xxl={4}>
                <Card
                  className="gantry-template-card"
                  data-testid={`template-card-${template.id}`}
                  actions={template.mine ? mineActions(template) : undefined}
                  cover={
                    <div style={{ position: 'relative' }}>
                      <img
                        src={template.card_display.cover}
                        alt=""
                        style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', display: 'block' }}
                      />
                      <Space
                        className="gantry-template-actions"
                        style={{
                          position: 'absolute',
                          inset: 0,
                          justifyContent: 'center',
                          background: 'rgba(0,0,0,.45)',
                        }}
                      >
                        <Button onClick={() => setPreviewed(template)} data-testid={`template-preview-${template.id}`}>
                          {t('templates.preview')}
                        </Button>
                        <Button
                          type="primary"
                          disabled={!template.usable}
                          onClick={() => use(template)}
                          data-testid={`template-use-${template.id}`}
                        >
                          {t('templates.use')}
                        </Button>
                      </Space>
                    </div>
                  }
                >
                  <Card.Meta
                    title={template.name}
                    description={
                      <>
                        <Typography.Text type="secondary">{template.developer}</Typography.Text>
                        <Typography.Paragraph ellipsis={{ rows: 2 }} style={{ margin: '8px 0 0' }}>
                          {template.card_display.intro}
                        </Typography.Paragraph>
                        <Space size={4} wrap>
                          <Tag>{industryLabel(t, template.industry)}</Tag>
                          <Tag color={template.source === 'builtin' ? 'blue' : 'green'}>
                            {t(`templates.source.${template.source}`)}
                          </Tag>
                        </Space>
                      </>
                    }
                  />
                </Card>
              </Col>
            ))}
          </Row>
        )}
      </Spin>
      {publishing || editing ? (
        <Suspense fallback={null}>
          <PublishDialog
            template={editing ?? undefined}
            onClose={() => {
              setPublishing(false);
              setEditing(null);
            }}
          />
        </Suspense>
      ) : null}
      {previewed ? <TemplatePreviewModal template={previewed} onUse={use} onClose={() => setPreviewed(null)} /> : null}
    </Card>
  );
}
