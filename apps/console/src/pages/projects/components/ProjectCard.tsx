import { DownOutlined, GlobalOutlined, SettingOutlined } from '@ant-design/icons';
import type { ProjectView } from '@gantry/shared';
import { Button, Card, Checkbox, Dropdown, Tag, Tooltip } from 'antd';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { pathTo } from '../../../app/paths';
import { openSite } from '../../../components/OpenSite';
import { formatDateTime } from '../../../utils/dateTime';
import { cardColours } from '../cardColours';
import { type ProjectMenuHandlers, projectMenu } from '../projectMenu';
import { deviceStats, remainingOf } from '../projectNumbers';
import { CountValue } from './CountValue';

/** The card's two site buttons: the project's admin and front sites. */
const SITE_BUTTONS = [
  { site: 'admin', icon: <SettingOutlined />, label: 'project.openAdmin' },
  { site: 'front', icon: <GlobalOutlined />, label: 'project.openFront' },
] as const;

export interface ProjectCardProps extends ProjectMenuHandlers {
  project: ProjectView;
  isAdmin: boolean;
  selected: boolean;
  onSelect: (selected: boolean) => void;
}

/**
 * One project in the card grid (console.md §2). The name (a link to the detail) has the card's whole
 * width (up to two lines), the status tag sits with the checkbox above it; each fact is its own line,
 * so every card of a row has the same layout, and the grid stretches them to one height
 * (docs/DECISIONS.md). On a coloured card every text and link takes the colour that contrasts more
 * with it; a disabled project's card is greyed out, dashed. On a narrow card the two site buttons
 * show their icons only (named by tooltip and aria-label), so no action is cut short (styles.css).
 */
export function ProjectCard({ project, isAdmin, selected, onSelect, ...handlers }: ProjectCardProps) {
  const { t } = useTranslation();
  const id = `project-card-${project.id}`;
  const devices = deviceStats(project._stats_);
  const unlimited = t('grant.unlimited');
  const created = formatDateTime(project.createTime);
  const colours = cardColours(project.bgColor, project.status);
  const style: CSSProperties & Record<'--gantry-card-text', string | undefined> = {
    background: colours.background,
    '--gantry-card-text': colours.text,
  };
  const className = [
    'gantry-project-card',
    colours.text ? 'gantry-card-coloured' : '',
    project.status ? '' : 'gantry-card-disabled',
  ]
    .filter(Boolean)
    .join(' ');
  const owner = t('common.labelValue', { label: t('project.owner'), value: project.user.name });

  return (
    <Card
      size="small"
      className={className}
      data-testid={id}
      data-disabled={project.status ? undefined : 'true'}
      style={style}
      actions={[
        ...SITE_BUTTONS.map(({ site, icon, label }) => (
          <Tooltip key={site} title={t(label)}>
            <Button
              type="link"
              size="small"
              icon={icon}
              className="gantry-card-action gantry-card-open"
              aria-label={t(label)}
              data-testid={`${id}-${site}`}
              onClick={() => openSite(project, site)}
            >
              <span className="gantry-card-action-label">{t(label)}</span>
            </Button>
          </Tooltip>
        )),
        <Dropdown key="more" trigger={['click']} menu={{ items: projectMenu(project, { isAdmin }, t, id, handlers) }}>
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
        <a
          className="gantry-card-name"
          href={`#${pathTo('projectDetail', { id: project.id })}`}
          data-testid={`${id}-name`}
        >
          {project.name}
        </a>
      </Tooltip>
      <span className="gantry-card-line gantry-text-secondary" title={owner} data-testid={`${id}-owner`}>
        {owner}
      </span>
      <div className="gantry-card-facts">
        <span>
          {t('common.label', { label: t('project.remainingPoints') })}
          <CountValue
            value={remainingOf(project, 'dataGathering.point')}
            testId={`${id}-points`}
            unlimited={unlimited}
          />
        </span>
        <span>
          {t('common.label', { label: t('project.remainingUsers') })}
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
          className="gantry-card-link"
          style={{ padding: 0, height: 'auto' }}
          data-testid={`${id}-licence`}
          onClick={() => handlers.onLicence(project)}
        >
          {t('project.licenceDetail')}
        </Button>
      </div>
    </Card>
  );
}
