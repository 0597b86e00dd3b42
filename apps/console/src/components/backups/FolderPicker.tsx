import { useQuery } from '@tanstack/react-query';
import { Empty, Input, Modal, Tree, type TreeDataNode } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type MediaNode, mediaTree } from '../../services/media';
import { testId } from '../../utils/testId';

/** The folders of the tree whose name contains `search`, with the folders that lead to them. */
export function matchingFolders(nodes: MediaNode[], search: string): MediaNode[] {
  const needle = search.trim().toLowerCase();
  const out: MediaNode[] = [];
  for (const node of nodes) {
    if (node.type !== 'dir') continue;
    const child = matchingFolders(node.child ?? [], search);
    if (!needle || node.name.toLowerCase().includes(needle) || child.length > 0) out.push({ ...node, child });
  }
  return out;
}

const toTree = (nodes: MediaNode[]): TreeDataNode[] =>
  nodes.map((node) => ({
    key: node.path,
    title: <span data-testid={`backup-folder-${node.path}`}>{node.name}</span>,
    children: toTree(node.child ?? []),
  }));

/** The media folders left out of a backup: a checkable folder tree with search (§2). */
export function FolderPicker({
  projectId,
  value,
  onClose,
}: {
  projectId: string;
  value: string[];
  onClose: (chosen: string[] | null) => void;
}) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [checked, setChecked] = useState<string[]>(value);
  const tree = useQuery({ queryKey: ['backup-folders', projectId], queryFn: () => mediaTree(projectId) });
  const data = useMemo(() => toTree(matchingFolders(tree.data ?? [], search)), [tree.data, search]);
  return (
    <Modal
      open
      title={t('backups.exempt')}
      onCancel={() => onClose(null)}
      onOk={() => onClose(checked)}
      okButtonProps={testId('backup-folders-ok')}
      destroyOnHidden
    >
      <Input.Search
        allowClear
        placeholder={t('backups.searchFolders')}
        value={search}
        onChange={(event) => setSearch(event.target.value)}
        style={{ marginBottom: 8 }}
        data-testid="backup-folders-search"
      />
      {data.length === 0 && !tree.isFetching ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} />
      ) : (
        <Tree
          checkable
          checkStrictly
          defaultExpandAll
          key={search}
          height={360}
          treeData={data}
          checkedKeys={checked}
          onCheck={(keys) => setChecked((Array.isArray(keys) ? keys : keys.checked).map(String))}
        />
      )}
    </Modal>
  );
}
