import {
  ArrowLeftOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  FileImageOutlined,
  FolderAddOutlined,
  ReloadOutlined,
  UploadOutlined,
} from '@ant-design/icons';
import { checkMediaName } from '@gantry/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  Button,
  Card,
  Descriptions,
  Empty,
  Input,
  Modal,
  Popconfirm,
  Progress,
  Space,
  Tree,
  type TreeDataNode,
} from 'antd';
import { type ChangeEvent, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { pathTo } from '../../../app/paths';
import { toast } from '../../../services/feedback';
import {
  type MediaNode,
  makeFolder,
  mediaFileUrl,
  mediaTree,
  removeMedia,
  renameMedia,
  uploadMedia,
} from '../../../services/media';
import { getProject } from '../../../services/project';
import { formatDateTime } from '../../../utils/dateTime';
import { formatBytes } from '../detail/ProjectData';
import './texts';
import { testId } from '../../../utils/testId';

const IMAGE = /\.(png|jpe?g|gif|webp|bmp|ico)$/i;
/** The nodes whose name contains `search` (any case), with the folders that lead to them. */
export function filterTree(nodes: MediaNode[], search: string): MediaNode[] {
  const needle = search.trim().toLowerCase();
  if (!needle) return nodes;
  const out: MediaNode[] = [];
  for (const node of nodes) {
    if (node.name.toLowerCase().includes(needle)) {
      out.push(node);
      continue;
    }
    const child = filterTree(node.child ?? [], search);
    if (child.length > 0) out.push({ ...node, child });
  }
  return out;
}

function toTreeData(nodes: MediaNode[]): TreeDataNode[] {
  return nodes.map((node) => ({
    key: node.path,
    title: <span data-testid={`media-node-${node.path}`}>{node.name}</span>,
    isLeaf: node.type === 'file',
    children: node.type === 'dir' ? toTreeData(node.child ?? []) : undefined,
  }));
}

function findNode(nodes: MediaNode[], path: string): MediaNode | undefined {
  for (const node of nodes) {
    if (node.path === path) return node;
    const found = findNode(node.child ?? [], path);
    if (found) return found;
  }
  return undefined;
}

function folderPaths(nodes: MediaNode[]): string[] {
  return nodes.flatMap((node) => (node.type === 'dir' ? [node.path, ...folderPaths(node.child ?? [])] : []));
}

const parentOf = (path: string) => path.split('/').slice(0, -1).join('/');

/** The folder `path` and the folders above it ('a/b' → ['a', 'a/b']; the root: none). */
export function withAncestors(path: string): string[] {
  if (path === '') return [];
  const segments = path.split('/');
  return segments.map((_, index) => segments.slice(0, index + 1).join('/'));
}

/** A name asked in a dialog, checked with the server's own rules before it is sent. */
function NameDialog(props: {
  open: boolean;
  title: string;
  label: string;
  initial: string;
  onCancel: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(props.initial);
  const [busy, setBusy] = useState(false);
  const problem = name === '' ? undefined : checkMediaName(name);
  return (
    <Modal
      open={props.open}
      title={props.title}
      destroyOnHidden
      onCancel={props.onCancel}
      okButtonProps={testId('media-name-ok', { disabled: name === '' || problem !== undefined, loading: busy })}
      onOk={() => {
        setBusy(true);
        void props.onSubmit(name).finally(() => setBusy(false));
      }}
    >
      <Input
        aria-label={props.label}
        placeholder={props.label}
        value={name}
        maxLength={255}
        status={problem ? 'error' : undefined}
        data-testid="media-name-input"
        onChange={(event) => setName(event.target.value)}
      />
      {problem ? (
        <div style={{ color: 'var(--ant-color-error)', marginTop: 4 }} data-testid="media-name-problem">
          {t(`media.reason.${problem}`)}
        </div>
      ) : null}
    </Modal>
  );
}

/** /app/model/Project/{id}/media: the project's media library (issue 11 §2). */
export default function ProjectMediaPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { id = '' } = useParams();
  const queryClient = useQueryClient();
  const key = ['project', id, 'media'];
  const query = useQuery({ queryKey: key, queryFn: () => mediaTree(id) });
  // The title names the project as its detail page does (same query, shared cache); the id until it loads.
  const project = useQuery({ queryKey: ['project', id], queryFn: () => getProject(id) });
  // Previews whose image did not load (not an image after all, gone meanwhile): an icon, not the alt text.
  const [broken, setBroken] = useState<ReadonlySet<string>>(new Set());
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<string | undefined>();
  const [dialog, setDialog] = useState<'folder' | 'rename' | undefined>();
  const [progress, setProgress] = useState<number | undefined>();
  // The folders the user opened; kept through a search, and opened where a new file or folder lands.
  const [expanded, setExpanded] = useState<string[]>([]);
  const expand = (folder: string) =>
    setExpanded((keys) => [...keys, ...withAncestors(folder).filter((key) => !keys.includes(key))]);
  const fileInput = useRef<HTMLInputElement>(null);

  const nodes = query.data ?? [];
  const shown = useMemo(() => filterTree(nodes, search), [nodes, search]);
  const node = selected === undefined ? undefined : findNode(nodes, selected);
  // Uploads and new folders go into the chosen folder, the folder of the chosen file, or the root.
  const folder = node ? (node.type === 'dir' ? node.path : parentOf(node.path)) : '';
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (files.length === 0) return;
    setProgress(0);
    expand(folder);
    try {
      await uploadMedia(id, folder, files, setProgress);
      toast.success(t('media.page.uploaded'));
    } catch {
      // Reported by uploadMedia.
    } finally {
      setProgress(undefined);
      await refresh();
    }
  };

  const onNewFolder = async (name: string) => {
    try {
      const made = await makeFolder(id, folder ? `${folder}/${name}` : name);
      setDialog(undefined);
      setSelected(made.path);
      expand(parentOf(made.path));
      toast.success(t('media.page.saved'));
      await refresh();
    } catch {
      // Reported by the request layer.
    }
  };

  const onRename = async (name: string) => {
    if (!node) return;
    try {
      const renamed = await renameMedia(id, node.path, name);
      setDialog(undefined);
      setSelected(renamed.path);
      toast.success(t('media.page.saved'));
      await refresh();
    } catch {
      // Reported by the request layer.
    }
  };

  const onDelete = async () => {
    if (!node) return;
    try {
      await removeMedia(id, node.path);
      setSelected(undefined);
      toast.success(t('media.page.deleted'));
      await refresh();
    } catch {
      // Reported by the request layer.
    }
  };

  return (
    <Space orientation="vertical" size={16} style={{ width: '100%' }} data-testid="media-page">
      <Card
        title={<span data-testid="media-title">{`${t('media.page.title')} · ${project.data?.name ?? id}`}</span>}
        extra={
          <Button
            icon={<ArrowLeftOutlined />}
            data-testid="media-back"
            onClick={() => void navigate(pathTo('projectDetail', { id }))}
          >
            {t('media.page.back')}
          </Button>
        }
      >
        <Space wrap style={{ marginBottom: 12 }}>
          <Input.Search
            allowClear
            placeholder={t('media.page.search')}
            aria-label={t('media.page.search')}
            data-testid="media-search"
            style={{ width: 260 }}
            value={search}
            onChange={(event) => setSearch(event.target.value)}
          />
          <Button
            type="primary"
            icon={<UploadOutlined />}
            data-testid="media-upload"
            disabled={progress !== undefined}
            onClick={() => fileInput.current?.click()}
          >
            {t('media.page.upload')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            multiple
            hidden
            data-testid="media-upload-input"
            onChange={(event) => void onFiles(event)}
          />
          <Button icon={<FolderAddOutlined />} data-testid="media-new-folder" onClick={() => setDialog('folder')}>
            {t('media.page.newFolder')}
          </Button>
          <Button icon={<ReloadOutlined />} data-testid="media-refresh" onClick={() => void refresh()}>
            {t('media.page.refresh')}
          </Button>
          <span data-testid="media-target">{t('media.page.target', { folder: folder || t('media.page.root') })}</span>
        </Space>
        {progress !== undefined ? (
          <div data-testid="media-progress">
            {t('media.page.uploading')}
            <Progress percent={Math.round(progress * 100)} size="small" />
          </div>
        ) : null}
        <div style={{ display: 'flex', gap: 16, flexWrap: 'wrap', alignItems: 'flex-start' }}>
          <div style={{ flex: '1 1 320px', minWidth: 0 }} data-testid="media-tree">
            {query.isPending ? null : shown.length === 0 ? (
              <Empty description={t(search ? 'media.page.noMatch' : 'media.page.empty')} />
            ) : (
              <Tree
                showLine
                blockNode
                treeData={toTreeData(shown)}
                selectedKeys={selected ? [selected] : []}
                // Searching opens every folder that leads to a match; the user's own stay for after it.
                expandedKeys={search ? folderPaths(shown) : expanded}
                onExpand={(keys) => {
                  if (!search) setExpanded(keys.map(String));
                }}
                onSelect={(keys) => {
                  const key = keys.length > 0 ? String(keys[0]) : undefined;
                  setSelected(key);
                  // What is chosen in a search's results stays in sight when the search is cleared.
                  if (key !== undefined) expand(parentOf(key));
                }}
              />
            )}
          </div>
          {/* Sticky: the chosen file's panel stays in sight while a long list scrolls past it. */}
          <Card
            size="small"
            style={{ flex: '1 1 320px', minWidth: 0, position: 'sticky', top: 16, alignSelf: 'flex-start' }}
            data-testid="media-details"
          >
            {node ? (
              <Space orientation="vertical" style={{ width: '100%' }}>
                <Descriptions size="small" column={1}>
                  <Descriptions.Item label={t('media.page.path')}>
                    <span data-testid="media-selected-path" style={{ wordBreak: 'break-all' }}>
                      {node.path}
                    </span>
                  </Descriptions.Item>
                  {node.type === 'file' ? (
                    <>
                      <Descriptions.Item label={t('media.page.size')}>{formatBytes(node.size ?? 0)}</Descriptions.Item>
                      <Descriptions.Item label={t('media.page.updateTime')}>
                        {node.updateTime ? formatDateTime(node.updateTime) : '-'}
                      </Descriptions.Item>
                    </>
                  ) : null}
                </Descriptions>
                <Space wrap>
                  <Button icon={<EditOutlined />} data-testid="media-rename" onClick={() => setDialog('rename')}>
                    {t('media.page.rename')}
                  </Button>
                  <Popconfirm
                    title={t('media.page.deleteConfirm', { name: node.name })}
                    onConfirm={() => void onDelete()}
                    okButtonProps={testId('media-delete-confirm')}
                  >
                    <Button danger icon={<DeleteOutlined />} data-testid="media-delete">
                      {t('media.page.delete')}
                    </Button>
                  </Popconfirm>
                  {node.type === 'file' ? (
                    <Button
                      icon={<DownloadOutlined />}
                      data-testid="media-download"
                      href={mediaFileUrl(id, node.path)}
                      target="_blank"
                      rel="noopener"
                    >
                      {t('media.page.download')}
                    </Button>
                  ) : null}
                </Space>
                {node.type === 'file' && IMAGE.test(node.name) && broken.has(node.path) ? (
                  <FileImageOutlined
                    style={{ fontSize: 64, color: 'rgba(0, 0, 0, 0.45)' }}
                    aria-label={node.name}
                    data-testid="media-preview-broken"
                  />
                ) : node.type === 'file' && IMAGE.test(node.name) ? (
                  <img
                    key={node.path}
                    onError={() => setBroken((paths) => new Set(paths).add(node.path))}
                    src={mediaFileUrl(id, node.path, true)}
                    alt={node.name}
                    data-testid="media-preview"
                    style={{ maxWidth: '100%', maxHeight: 300, objectFit: 'contain' }}
                  />
                ) : null}
              </Space>
            ) : (
              <Empty description={t('media.page.select')} />
            )}
          </Card>
        </div>
      </Card>
      {dialog === 'folder' ? (
        <NameDialog
          open
          title={t('media.page.newFolder')}
          label={t('media.page.folderName')}
          initial=""
          onCancel={() => setDialog(undefined)}
          onSubmit={onNewFolder}
        />
      ) : null}
      {dialog === 'rename' && node ? (
        <NameDialog
          open
          title={t('media.page.rename')}
          label={t('media.page.newName')}
          initial={node.name}
          onCancel={() => setDialog(undefined)}
          onSubmit={onRename}
        />
      ) : null}
    </Space>
  );
}
