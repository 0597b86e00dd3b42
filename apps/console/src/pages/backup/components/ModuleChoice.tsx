import { DATA_MODULE_GROUPS, type DataModuleGroup, linkModules } from '@gantry/shared';
import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

const GROUPS = Object.entries(DATA_MODULE_GROUPS) as Array<[DataModuleGroup, readonly string[]]>;

/**
 * The data content choice (backups-data-designer.md §3, "Data module choices (grouped)"): each group
 * with its modules; a group's box chooses all of it. Every change goes through the selection links
 * of §4 (linkModules), so what is shown is what the server will back up.
 */
export function ModuleChoice({
  value = [],
  onChange,
  offered,
}: {
  value?: string[];
  onChange?: (value: string[]) => void;
  /** Only these modules (a restore offers what the backup holds). */
  offered?: readonly string[];
}) {
  const { t } = useTranslation();
  const chosen = new Set(value);
  const set = (modules: readonly string[], on: boolean) => {
    const next = new Set(chosen);
    for (const module of modules) {
      if (on) next.add(module);
      else next.delete(module);
    }
    const linked = on ? linkModules(next) : [...next];
    onChange?.(offered ? linked.filter((module) => offered.includes(module)) : linked);
  };
  return (
    <div
      data-testid="backup-modules"
      style={{
        display: 'grid',
        gap: 4,
        maxHeight: 300,
        overflowY: 'auto',
        padding: '4px 8px',
        border: '1px solid rgba(5, 5, 5, 0.06)',
        borderRadius: 6,
      }}
    >
      {GROUPS.map(([group, all]) => {
        const modules = offered ? all.filter((module) => offered.includes(module)) : all;
        if (modules.length === 0) return null;
        const count = modules.filter((module) => chosen.has(module)).length;
        return (
          <div key={group} style={{ display: 'flex', flexWrap: 'wrap', columnGap: 12, rowGap: 2 }}>
            <Checkbox
              style={{ minWidth: 140, fontWeight: 500 }}
              checked={count === modules.length}
              indeterminate={count > 0 && count < modules.length}
              onChange={(event) => set(modules, event.target.checked)}
              data-testid={`backup-group-${group}`}
            >
              {t(`backups.group.${group}` as const)}
            </Checkbox>
            {modules.map((module) => (
              <Checkbox
                key={module}
                checked={chosen.has(module)}
                onChange={(event) => set([module], event.target.checked)}
                data-testid={`backup-module-${group}-${module}`}
              >
                {module}
              </Checkbox>
            ))}
          </div>
        );
      })}
    </div>
  );
}
