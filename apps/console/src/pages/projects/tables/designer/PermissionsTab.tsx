import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, HolderOutlined, PlusOutlined } from '@ant-design/icons';
import { PERMISSION_SCOPES, PERMISSION_SUBJECTS, type PermissionRule } from '@gantry/shared';
import { Alert, Button, Card, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Draft, EVERYBODY, move, type PermissionKind } from '../draft';

const KINDS: PermissionKind[] = ['view', 'add', 'manage'];

/**
 * Record permissions (§4a): view, add and manage, each a list of configurations evaluated top to
 * bottom (reordered by dragging or with the arrows); manage is limited by view (the server's rule).
 */
export function PermissionsTab({ draft, onChange }: { draft: Draft; onChange: (draft: Draft) => void }) {
  const { t } = useTranslation();
  const [dragged, setDragged] = useState<{ kind: PermissionKind; index: number }>();
  const setList = (kind: PermissionKind, list: PermissionRule[]) =>
    onChange({ ...draft, permissions: { ...draft.permissions, [kind]: list } });

  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Alert type="info" showIcon title={t('designer.perm.manageNote')} />
      {KINDS.map((kind) => {
        const list = draft.permissions[kind];
        return (
          <Card key={kind} size="small" title={t(`designer.perm.${kind}`)} data-testid={`perm-${kind}`}>
            <ul style={{ listStyle: 'none', margin: 0, padding: 0 }}>
              {list.map((rule, index) => (
                <li
                  // biome-ignore lint/suspicious/noArrayIndexKey: configurations have no identity but their place
                  key={index}
                  data-testid={`perm-${kind}-${index}`}
                  draggable
                  onDragStart={() => setDragged({ kind, index })}
                  onDragOver={(event) => event.preventDefault()}
                  onDrop={() => {
                    if (dragged?.kind === kind) setList(kind, move(list, dragged.index, index));
                    setDragged(undefined);
                  }}
                  style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', marginBottom: 8 }}
                >
                  <HolderOutlined style={{ cursor: 'grab' }} />
                  <span style={{ minWidth: 16 }}>{index + 1}.</span>
                  <Select
                    aria-label={t('designer.perm.who')}
                    data-testid={`perm-${kind}-${index}-who`}
                    style={{ width: 140 }}
                    value={rule.who}
                    options={PERMISSION_SUBJECTS.map((who) => ({ value: who, label: t(`designer.who.${who}`) }))}
                    onChange={(who) =>
                      setList(
                        kind,
                        list.map((item, i) => (i === index ? { ...item, who } : item)),
                      )
                    }
                  />
                  {rule.who !== 'all' && (
                    <Select
                      mode="tags"
                      aria-label={t('designer.perm.ids')}
                      placeholder={t('designer.perm.ids')}
                      style={{ minWidth: 200, flex: 1 }}
                      value={rule.ids}
                      onChange={(ids: string[]) =>
                        setList(
                          kind,
                          list.map((item, i) => (i === index ? { ...item, ids } : item)),
                        )
                      }
                    />
                  )}
                  <Select
                    aria-label={t('designer.perm.records')}
                    data-testid={`perm-${kind}-${index}-records`}
                    style={{ width: 220 }}
                    value={rule.records}
                    options={PERMISSION_SCOPES.map((scope) => ({ value: scope, label: t(`designer.scope.${scope}`) }))}
                    onChange={(records) =>
                      setList(
                        kind,
                        list.map((item, i) => (i === index ? { ...item, records } : item)),
                      )
                    }
                  />
                  <Space size={0}>
                    <Button
                      type="text"
                      icon={<ArrowUpOutlined />}
                      aria-label={t('designer.moveUp')}
                      disabled={index === 0}
                      data-testid={`perm-${kind}-${index}-up`}
                      onClick={() => setList(kind, move(list, index, index - 1))}
                    />
                    <Button
                      type="text"
                      icon={<ArrowDownOutlined />}
                      aria-label={t('designer.moveDown')}
                      disabled={index === list.length - 1}
                      onClick={() => setList(kind, move(list, index, index + 1))}
                    />
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('tables.ui.delete')}
                      onClick={() =>
                        setList(
                          kind,
                          list.filter((_item, i) => i !== index),
                        )
                      }
                    />
                  </Space>
                </li>
              ))}
            </ul>
            <Button
              icon={<PlusOutlined />}
              data-testid={`perm-${kind}-add`}
              onClick={() => setList(kind, [...list, { ...EVERYBODY }])}
            >
              {t('designer.perm.add.button')}
            </Button>
          </Card>
        );
      })}
    </Space>
  );
}
