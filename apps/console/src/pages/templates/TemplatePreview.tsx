import './texts';
import type { TemplateView } from '@gantry/shared';
import { Button, Descriptions, Image, Modal, Space, Statistic, Tag, Tooltip, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { industryLabel } from '../projects/options';

const APP_INFO = ['models', 'nodes', 'views', 'worksheets', 'reports', 'flows'] as const;
const TIME = 'YYYY-MM-DD HH:mm:ss';

export interface TemplatePreviewProps {
  template: TemplateView;
  onUse: (template: TemplateView) => void;
}

/**
 * The schemepreview fields (console.md §2): name, installs, description, a use button, application
 * info counts, type (project template), developer contact, publish time, long-description images.
 */
export function TemplatePreviewBody({ template, onUse }: TemplatePreviewProps) {
  const { t } = useTranslation();
  const use = (
    <Button
      type="primary"
      size="large"
      disabled={!template.usable}
      onClick={() => onUse(template)}
      data-testid="template-preview-use"
    >
      {t('templates.useTemplate')}
    </Button>
  );
  return (
    <div data-testid="template-preview" style={{ maxWidth: 1100, margin: '0 auto' }}>
      <Space align="start" size={24} wrap>
        <img
          src={template.card_display.cover}
          alt=""
          width={320}
          height={180}
          style={{ objectFit: 'cover', borderRadius: 8 }}
        />
        <div>
          <Typography.Title level={2} style={{ marginTop: 0 }} data-testid="template-preview-name">
            {template.name}
          </Typography.Title>
          <Typography.Paragraph type="secondary">{template.card_display.intro}</Typography.Paragraph>
          <Space size={32} style={{ marginBottom: 16 }}>
            <Statistic
              title={t('templates.installs')}
              value={template.num_installed}
              data-testid="template-preview-installs"
            />
            <Statistic title={t('templates.type')} value={t('templates.typeProject')} />
          </Space>
          <div>{template.usable ? use : <Tooltip title={t('templates.notUsable')}>{use}</Tooltip>}</div>
        </div>
      </Space>
      <Typography.Title level={4}>{t('templates.appInfo')}</Typography.Title>
      <Space size={32} wrap data-testid="template-preview-appinfo">
        {APP_INFO.map((key) => (
          <Statistic key={key} title={t(`templates.app.${key}`)} value={template.app_info[key]} />
        ))}
      </Space>
      <Descriptions column={2} style={{ marginTop: 24 }}>
        <Descriptions.Item label={t('templates.developer')}>{template.developer}</Descriptions.Item>
        <Descriptions.Item label={t('templates.contact')}>
          <span data-testid="template-preview-contact">{template.contact || '-'}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('templates.industry')}>{industryLabel(t, template.industry)}</Descriptions.Item>
        <Descriptions.Item label={t('templates.publishTime')}>
          {dayjs(template.publish_time).format(TIME)}
        </Descriptions.Item>
      </Descriptions>
      <Typography.Title level={4}>{t('templates.description')}</Typography.Title>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="template-preview-description">
        {template.template_description}
      </Typography.Paragraph>
      <Space direction="vertical" style={{ width: '100%' }}>
        {template.images.map((src) => (
          <Image key={src} src={src} alt="" style={{ maxWidth: '100%' }} />
        ))}
      </Space>
      {template.published ? null : <Tag color="orange">{t('templates.unpublished')}</Tag>}
    </div>
  );
}

/** The preview as a full-screen modal (the gallery's Preview). */
export function TemplatePreviewModal({ template, onUse, onClose }: TemplatePreviewProps & { onClose: () => void }) {
  return (
    <Modal
      open
      footer={null}
      onCancel={onClose}
      width="100vw"
      style={{ top: 0, maxWidth: '100vw', paddingBottom: 0 }}
      styles={{ body: { minHeight: 'calc(100vh - 48px)' } }}
      destroyOnHidden
      data-testid="template-preview-modal"
    >
      <TemplatePreviewBody template={template} onUse={onUse} />
    </Modal>
  );
}
