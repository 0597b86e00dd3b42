import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { HOME_PATH } from '../../app/paths';
import { useSettings } from '../../services/settings';

/** Product logo and name from settings; goes to the dashboard. */
export function HeaderTitle({ color = 'inherit', showName = true }: { color?: string; showName?: boolean }) {
  const { t } = useTranslation();
  const { data: settings } = useSettings();
  const name = settings?.name || t('app.defaultName');
  return (
    <Link
      to={HOME_PATH}
      data-testid="header-title"
      title={name}
      style={{
        display: 'flex',
        alignItems: 'center',
        gap: 10,
        color,
        fontSize: 18,
        fontWeight: 600,
        whiteSpace: 'nowrap',
        overflow: 'hidden',
        textOverflow: 'ellipsis',
        minWidth: 0,
        textDecoration: 'none',
      }}
    >
      {settings?.logo ? <img src={settings.logo} alt="" style={{ height: 32, maxWidth: 96 }} /> : null}
      {showName ? <span style={{ overflow: 'hidden', textOverflow: 'ellipsis' }}>{name}</span> : null}
      {!showName && !settings?.logo ? <span aria-hidden>{name.slice(0, 1).toUpperCase()}</span> : null}
    </Link>
  );
}
