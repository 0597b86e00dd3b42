import { Card } from 'antd';
import { useProjectExpand } from './api';
import { ExtensionFields } from './ExtensionFields';
import { useExpandText } from './texts';

/** The project form's extension fields (settings/project), when any are defined. */
export function ProjectExtensionCard({ mode }: { mode: 'create' | 'edit' }) {
  const text = useExpandText();
  const { data: expand } = useProjectExpand();
  if (!expand || expand.schema.fields.length === 0) return null;
  return (
    <Card title={text('projectExpand.ui.section')} style={{ marginBottom: 16 }} data-testid="project-extension">
      <ExtensionFields expand={expand} mode={mode} />
    </Card>
  );
}
