import { DownOutlined, GlobalOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProjectView } from '@gantry/shared';
import { Button, Card, Checkbox, Dropdown, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { openSite } from '../../../components/OpenSite';
import { formatDateTime } from '../../../utils/dateTime';
import { deviceStats, remainingOf } from '../projectNumbers';
import { backupItems, openBackupItem } from './backupItems';
import { CountValue } from './CountValue';

export interface ProjectCardProps {
  project: ProjectView;
  selected: boolean;
  onSelect: (selected: boolean) => void;
  onLicence: () => void;
  onEdit: () => void;
  onToggleStatus: () => void;
  onDelete: () => void;
}

/**
 * One project in the card grid (console.md §2). The name has the card's whole width (up to two
 * lines), the status tag sits with the checkbox above it; each fact is its own line, so every card
 * of a row has the same layout, and the grid stretches them to one height (docs/DECISIONS.md).
 */
export function ProjectCard({
  project,
  selected,
  onSelect,
  onLicence,
  onEdit,
  onToggleStatus,
  onDelete,
}: ProjectCardProps) {
  const { t } = useTranslation();
  const id = `project-card-${project.id}`;
  const devices = deviceStats(project._stats_);
  const unlimited = t('grant.unlimited');
  const created = formatDateTime(project.createTime);

  const items = [
    { key: 'edit', label: <span data-testid={`${id}-edit`}>{t('project.edit')}</span> },
    {
      key: 'status',
      label: <span data-testid={`${id}-status`}>{t(project.status ? 'project.disable' : 'project.enable')}</span>,
    },
    ...backupItems(t, id),
    { type: 'divider' as const },
    { key: 'delete', danger: true, label: <span data-testid={`${id}-delete`}>{t('project.delete')}</span> },
  ];
  const onMenu = ({ key }: { key: string }) => {
    if (openBackupItem(key, project.id)) return;
    if (key === 'edit') onEdit();
    else if (key === 'status') onToggleStatus();
    else if (key === 'delete') onDelete();
  };
  const owner = `${t('project.owner')}：${project.user.name}`;

  return (
    <Card
      size="small"
      className="gantry-project-card"
      data-testid={id}
      style={{ background: project.bgColor ?? undefined }}
      actions={[
        <Button
          key="admin"
          type="link"
          size="small"
          icon={<SettingOutlined />}
          className="gantry-card-action"
          title={t('project.openAdmin')}
          data-testid={`${id}-admin`}
          onClick={() => openSite(project, 'admin')}
        >
          {t('project.openAdmin')}
        </Button>,
        <Button
          key="front"
          type="link"
          size="small"
          icon={<GlobalOutlined />}
          className="gantry-card-action"
          title={t('project.openFront')}
          data-testid={`${id}-front`}
          onClick={() => openSite(project, 'front')}
        >
          {t('project.openFront')}
        </Button>,
        <Dropdown key="more" trigger={['click']} menu={{ items, onClick: onMenu }}>
          <Button type="link" size="small" className="gantry-card-action" data-testid={`${id}-more`}>
            {t('project.more')} <DownOutlined />
          </Button>
        </Dropdown>,
      ]}
    >
      <div className="gantry-card-head">
        <Checkbox
          checked={selected}
          onChange={(e) => onSelect(e.target.checked)}
          data-testid={`${id}-select`}
          aria-label={project.name}
        />
        <Tag color={project.status ? 'green' : 'default'} data-testid={`${id}-state`} style={{ marginInlineEnd: 0 }}>
          {t(project.status ? 'project.enabled' : 'project.disabled')}
        </Tag>
      </div>
      <Tooltip
        title={
          <>
            <div>{project.name}</div>
            <div>{t('project.createdAt', { time: created })}</div>
          </>
        }
      >
        <strong className="gantry-card-name" title={project.name} data-testid={`${id}-name`}>
          {project.name}
        </strong>
      </Tooltip>
      <span className="gantry-card-line gantry-text-secondary" title={owner} data-testid={`${id}-owner`}>
        {owner}
      </span>
      <div className="gantry-card-facts">
        <span>
          {t('project.remainingPoints')}：
          <CountValue
            value={remainingOf(project, 'dataGathering.point')}
            testId={`${id}-points`}
            unlimited={unlimited}
          />
        </span>
        <span>
          {t('project.remainingUsers')}：
          <CountValue value={remainingOf(project, 'userCount')} testId={`${id}-users`} unlimited={unlimited} />
        </span>
      </div>
      <div className="gantry-card-facts">
        <span data-testid={`${id}-devices`}>
          {t('project.devices', { total: devices.total, online: devices.online })}
        </span>
        <Button
          type="link"
          size="small"
          style={{ padding: 0, height: 'auto' }}
          data-testid={`${id}-licence`}
          onClick={onLicence}
        >
          {t('project.licenceDetail')}
        </Button>
      </div>
    </Card>
  );
}
