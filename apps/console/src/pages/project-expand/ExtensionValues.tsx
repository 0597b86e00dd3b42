import type { ProjectView } from '@gantry/shared';
import { Card, Descriptions } from 'antd';
import { useTranslation } from 'react-i18next';
import { useProjectExpand } from './api';
import { extensionText } from './extensionValue';
import { useExpandText } from './texts';

/** The project detail's extension values (settings/project), when any fields are defined. */
export function ExtensionValues({ project }: { project: Pick<ProjectView, 'extra'> }) {
  const text = useExpandText();
  const { t } = useTranslation();
  const { data: expand } = useProjectExpand();
  if (!expand || expand.schema.fields.length === 0) return null;
  const yesNo = (value: boolean) => t(value ? 'common.yes' : 'common.no');
  return (
    <Card title={text('projectExpand.ui.section')} data-testid="project-detail-extension">
      <Descriptions bordered size="small" column={{ xs: 1, md: 2, xl: 3 }}>
        {expand.schema.fields.map((field) => (
          <Descriptions.Item key={field.name} label={field.title}>
            <span data-testid={`project-detail-extra-${field.name}`}>
              {extensionText(field, project.extra?.[field.name], yesNo)}
            </span>
          </Descriptions.Item>
        ))}
      </Descriptions>
    </Card>
  );
}
