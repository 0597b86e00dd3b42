import '../../templates/texts';
import { CheckCircleFilled } from '@ant-design/icons';
import type { TemplateView } from '@gantry/shared';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Input, Modal, Row, Space, Spin, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTemplates } from '../../../services/templates';
import { industryLabel } from '../options';
import { ChosenTemplate } from './TemplateInstall';

export interface TemplatePickerProps {
  /** The chosen template's id (the form's `type`). */
  value?: string | null;
  onChange?: (id: string) => void;
}

/**
 * The project form's template field: the chosen template's name, and a button opening the gallery's
 * cards (cover, name, developer, intro, industry), searchable by name; a card click chooses it.
 * Templates the user may not use are shown greyed and cannot be chosen.
 */
export default function TemplatePicker({ value, onChange }: TemplatePickerProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const templates = useQuery({
    queryKey: ['templates', name, ''],
    queryFn: ({ signal }) => listTemplates({ name }, signal),
    enabled: open,
    placeholderData: (previous) => previous,
  });
  const choose = (template: TemplateView) => {
    onChange?.(template.id);
    setOpen(false);
  };

  return (
    <div data-testid="project-type" data-value={value ?? ''}>
      <Space wrap>
        <Button onClick={() => setOpen(true)} data-testid="project-template-pick">
          {t(value ? 'project.templateChange' : 'project.templatePick')}
        </Button>
        {value ? <ChosenTemplate id={value} /> : null}
      </Space>
      <Modal
        open={open}
        title={t('project.templatePick')}
        width={960}
        footer={null}
        onCancel={() => setOpen(false)}
        data-testid="project-template-dialog"
      >
        <Input.Search
          allowClear
          placeholder={t('templates.searchName')}
          aria-label={t('templates.searchName')}
          onSearch={setName}
          style={{ maxWidth: 320, marginBottom: 16 }}
          data-testid="project-template-search"
        />
        <Spin spinning={templates.isFetching}>
          {templates.data && templates.data.length === 0 ? (
            <Empty description={t('templates.empty')} />
          ) : (
            <Row gutter={[12, 12]}>
              {(templates.data ?? []).map((template) => (
                <Col key={template.id} xs={24} sm={12} md={8}>
                  <Card
                    size="small"
                    hoverable={template.usable}
                    className={template.id === value ? 'gantry-template-chosen' : undefined}
                    style={{ opacity: template.usable ? 1 : 0.6, height: '100%' }}
                    cover={
                      <img
                        src={template.card_display.cover}
                        alt=""
                        style={{ width: '100%', aspectRatio: '16 / 9', objectFit: 'cover', display: 'block' }}
                      />
                    }
                  >
                    <button
                      type="button"
                      className="gantry-template-option"
                      disabled={!template.usable}
                      aria-pressed={template.id === value}
                      onClick={() => choose(template)}
                      data-testid={`project-template-option-${template.id}`}
                    >
                      <strong>
                        {template.id === value ? (
                          <CheckCircleFilled style={{ color: '#389e0d', marginInlineEnd: 6 }} />
                        ) : null}
                        {template.name}
                      </strong>
                      <span className="gantry-text-secondary">{template.developer}</span>
                      <span className="gantry-template-intro">{template.card_display.intro}</span>
                    </button>
                    <Tag style={{ marginTop: 8 }}>{industryLabel(t, template.industry)}</Tag>
                  </Card>
                </Col>
              ))}
            </Row>
          )}
        </Spin>
      </Modal>
    </div>
  );
}
