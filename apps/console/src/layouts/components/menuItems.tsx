import type { MenuProps } from 'antd';
import type { TFunction } from 'i18next';
import { PATHS } from '../../app/paths';
import type { MenuEntry } from '../../routes';
import { HelpLink } from './HelpLink';
import { MENU_ICONS } from './menuIcons';

type Items = NonNullable<MenuProps['items']>;

/** routes.tsx menu entries → antd Menu items, keyed by page path (external links by their href). */
export function toMenuItems(entries: MenuEntry[], t: TFunction): Items {
  return entries.map((entry) => {
    const icon = entry.icon ? MENU_ICONS[entry.icon] : undefined;
    if (entry.children) {
      return { key: entry.key, icon, label: t(entry.title), children: toMenuItems(entry.children, t) };
    }
    if (entry.key === 'help') {
      return { key: 'help', icon, label: <HelpLink title={t(entry.title)} /> };
    }
    if (entry.href) {
      return {
        key: entry.href,
        icon,
        label: (
          <a href={entry.href} target="_blank" rel="noopener noreferrer">
            {t(entry.title)}
          </a>
        ),
      };
    }
    const path = entry.page ? PATHS[entry.page] : entry.key;
    return { key: path, icon, label: <span data-testid={`menu-${entry.key}`}>{t(entry.title)}</span> };
  });
}

/** The menu key (page path) that best matches the location, and the groups that contain it. */
export function selectedMenu(entries: MenuEntry[], pathname: string): { selected: string[]; open: string[] } {
  let best: { path: string; parents: string[] } | null = null;
  const walk = (list: MenuEntry[], parents: string[]) => {
    for (const entry of list) {
      if (entry.children) walk(entry.children, [...parents, entry.key]);
      else if (entry.page) {
        const path: string = PATHS[entry.page];
        const matches = pathname === path || pathname.startsWith(`${path}/`);
        if (matches && (!best || path.length > best.path.length)) best = { path, parents };
      }
    }
  };
  walk(entries, []);
  const found = best as { path: string; parents: string[] } | null;
  return found ? { selected: [found.path], open: found.parents } : { selected: [], open: [] };
}
