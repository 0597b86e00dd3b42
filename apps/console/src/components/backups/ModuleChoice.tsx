import { type Collection, DATA_MODULE_GROUPS, type DataModuleGroup, linkModules } from '@gantry/shared';
import { Checkbox } from 'antd';
import { useTranslation } from 'react-i18next';

const GROUPS = Object.entries(DATA_MODULE_GROUPS) as Array<[DataModuleGroup, readonly Collection[]]>;

/**
 * The data content choice (backups-data-designer.md §3, "Data module choices (grouped)"): each group
 * with its modules, every one by its translated name; a group's box chooses all of it. A group of
 * one module is its box alone. Groups of several take a whole row, their modules in columns that
 * narrow to two on a phone. Every change goes through the selection links of §4 (linkModules), so
 * what is shown is what the server will back up.
 */
export function ModuleChoice({
  prefix,
  value = [],
  onChange,
  offered,
}: {
  prefix: string;
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
      data-testid={`${prefix}-modules`}
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fill, minmax(130px, 1fr))',
        columnGap: 12,
        rowGap: 6,
        maxHeight: 320,
        overflowY: 'auto',
        padding: '8px 12px',
        border: '1px solid rgba(5, 5, 5, 0.06)',
        borderRadius: 6,
      }}
    >
      {GROUPS.map(([group, all]) => {
        const modules = offered ? all.filter((module) => offered.includes(module)) : all;
        if (modules.length === 0) return null;
        const count = modules.filter((module) => chosen.has(module)).length;
        const groupBox = (
          <Checkbox
            style={{ fontWeight: 500 }}
            checked={count === modules.length}
            indeterminate={count > 0 && count < modules.length}
            onChange={(event) => set(modules, event.target.checked)}
            data-testid={`${prefix}-group-${group}`}
          >
            {t(`backups.group.${group}`)}
          </Checkbox>
        );
        if (all.length === 1) return <div key={group}>{groupBox}</div>;
        return (
          <div key={group} style={{ gridColumn: '1 / -1' }}>
            {groupBox}
            <div
              style={{
                display: 'grid',
                gridTemplateColumns: 'repeat(auto-fill, minmax(120px, 1fr))',
                columnGap: 12,
                rowGap: 4,
                padding: '4px 0 4px 24px',
              }}
            >
              {modules.map((module) => (
                <Checkbox
                  key={module}
                  checked={chosen.has(module)}
                  onChange={(event) => set([module], event.target.checked)}
                  data-testid={`${prefix}-module-${group}-${module}`}
                >
                  {t(`backups.module.${module}`)}
                </Checkbox>
              ))}
            </div>
          </div>
        );
      })}
    </div>
  );
}
