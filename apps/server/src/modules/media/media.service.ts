import type { Readable } from 'node:stream';
import {
  checkMediaName,
  checkMediaPath,
  MEDIA_LIMITS,
  MEDIA_PUBLIC_ROOT,
  type MediaPathProblem,
  type MessageKey,
} from '@gantry/shared';
import { AppError } from '../../lib/app-error.js';
import { type FileStore, FileStoreError, type TreeNode } from '../../lib/file-store.js';
import type { GatedProject } from '../../plugins/project-gate.js';
import { type PublicMediaFeature, publicMediaAccess } from '../../policy/policy.js';
import type { SettingsService } from '../settings/settings.service.js';
import type { UserRow } from '../users/user.repository.js';
import type { MediaRepository } from './media.repository.js';

/** The areas of the file store (design D4): a project's media library and html package, the public folder. */
export const mediaArea = (projectId: string) => `projects/${projectId}/fileServer`;
export const htmlArea = (projectId: string) => `projects/${projectId}/html`;
export const PUBLIC_AREA = 'public-media';
/** A temporary upload file not written to for this long belongs to an upload that stopped. */
export const TEMPORARY_FILE_STALE_MS = 60 * 60 * 1000;

/** A caller on one project, checked: what it may do there. */
export interface MediaContext {
  projectId: string;
  /** Writes allowed: the project and its tenant are enabled. */
  enabled: boolean;
  publicVisible: boolean;
  publicFeatures: PublicMediaFeature[];
}

/** A checked path: where it is (area and segments) and how the caller names it. */
interface Located {
  area: string;
  segments: string[];
  isPublic: boolean;
  path: string;
}

export interface UploadedFile {
  path: string;
  name: string;
  size: number;
}

function pathInvalid(path: string, problem: MediaPathProblem | 'symlink' | 'publicRoot'): AppError {
  return new AppError('mediaPathInvalid', {
    params: { path: path.slice(0, 200), reason: `media.reason.${problem}` as MessageKey },
  });
}

/** Prefixes the paths of a tree answered by the public area with `public/`. */
function underPublic(nodes: TreeNode[]): TreeNode[] {
  return nodes.map((node) => ({
    ...node,
    path: `${MEDIA_PUBLIC_ROOT}/${node.path}`,
    ...(node.child ? { child: underPublic(node.child) } : {}),
  }));
}

/**
 * The media library of a project (issue 11 §2): a folder tree in the file store. Who: the
 * administrator and the tenant owning the project (anybody else: 404, as if there were no project).
 * A disabled project (or tenant) is read-only. Paths are checked by `checkMediaPath` before the store
 * is asked anything; the store refuses links. The root folder `public` shows the platform's public
 * folder, as `publicMediaAccess` allows.
 */
export class MediaService {
  constructor(
    private readonly store: FileStore,
    private readonly projects: MediaRepository,
    private readonly settings: SettingsService,
    private readonly fileMaxBytes: number,
  ) {}

  get maxFileBytes(): number {
    return this.fileMaxBytes;
  }

  /** The library of a project the project gate resolved for `user` (its state and public-folder options read). */
  async context(user: UserRow, gated: GatedProject): Promise<MediaContext> {
    const projectId = gated.id;
    const project = await this.projects.project(projectId);
    // Removed since the gate saw it.
    if (!project) throw new AppError('notFound');
    const { mediaLibrary } = await this.settings.get();
    const publicDir = publicMediaAccess(user, mediaLibrary, project.advanced);
    return {
      projectId,
      enabled: project.enabled,
      publicVisible: publicDir.visible,
      publicFeatures: publicDir.features,
    };
  }

  /** Checks `path` and places it: in the project's library, or (under `public/`) in the public folder. */
  private locate(context: MediaContext, path: string, allowRoot = false): Located {
    const check = checkMediaPath(path, allowRoot);
    if (!check.ok) throw pathInvalid(path, check.problem);
    const [first, ...rest] = check.segments;
    if (first === MEDIA_PUBLIC_ROOT) {
      if (!context.publicVisible) {
        // Hidden: as if it were not there, and its name still not the project's to take.
        if (rest.length === 0) throw pathInvalid(path, 'publicRoot');
        throw new AppError('mediaNotFound', { params: { path } });
      }
      return { area: PUBLIC_AREA, segments: rest, isPublic: true, path };
    }
    return { area: mediaArea(context.projectId), segments: check.segments, isPublic: false, path };
  }

  /** A change at `at`: the project must be enabled, and the public folder must allow `feature`. */
  private mayChange(context: MediaContext, at: Located, feature: PublicMediaFeature): void {
    if (!context.enabled) throw new AppError('projectReadOnly');
    if (at.isPublic && !context.publicFeatures.includes(feature)) {
      throw new AppError('mediaPublicDenied', { params: { feature } });
    }
  }

  /** A path that is changed itself (renamed, moved, removed): neither a root nor the public folder. */
  private changeable(at: Located): void {
    if (at.segments.length === 0) throw pathInvalid(at.path, at.isPublic ? 'publicRoot' : 'empty');
  }

  /** A name a change creates in the project's root must not be the public folder's. */
  private creatable(at: Located): void {
    if (!at.isPublic && at.segments.length === 1 && at.segments[0] === MEDIA_PUBLIC_ROOT) {
      throw pathInvalid(at.path, 'publicRoot');
    }
  }

  private display(at: Located, segments: string[]): string {
    const inside = segments.join('/');
    if (!at.isPublic) return inside;
    return inside ? `${MEDIA_PUBLIC_ROOT}/${inside}` : MEDIA_PUBLIC_ROOT;
  }

  /** Runs a store call, turning its refusals into errors that name the caller's path. */
  private async run<T>(at: Located, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof FileStoreError)) throw error;
      const path = this.display(at, error.segments);
      switch (error.problem) {
        case 'symlink':
          throw pathInvalid(path, 'symlink');
        case 'tooLarge':
          throw new AppError('mediaFileTooLarge', { params: { max: this.fileMaxBytes } });
        case 'notFound':
          throw new AppError('mediaNotFound', { params: { path } });
        case 'exists':
          throw new AppError('mediaExists', { params: { path } });
        case 'notFolder':
          throw new AppError('mediaNotFolder', { params: { path } });
        case 'notFile':
          throw new AppError('mediaNotFile', { params: { path } });
      }
    }
  }

  /** The folder tree (files too when asked) under `path` (the root: the project's library and `public`). */
  async tree(context: MediaContext, path: string, files: boolean): Promise<{ nodes: TreeNode[]; truncated: boolean }> {
    const at = this.locate(context, path, true);
    const options = { files, maxNodes: MEDIA_LIMITS.treeNodesMax };
    const answer = await this.run(at, () => this.store.tree(at.area, at.segments, options));
    if (at.isPublic) return { nodes: underPublic(answer.nodes), truncated: answer.truncated };
    if (path !== '' || !context.publicVisible) return answer;
    const publicTree = await this.store.tree(PUBLIC_AREA, [], {
      files,
      maxNodes: Math.max(0, options.maxNodes - 1 - countNodes(answer.nodes)),
    });
    const publicNode: TreeNode = {
      path: MEDIA_PUBLIC_ROOT,
      name: MEDIA_PUBLIC_ROOT,
      type: 'dir',
      child: underPublic(publicTree.nodes),
    };
    return { nodes: [publicNode, ...answer.nodes], truncated: answer.truncated || publicTree.truncated };
  }

  /** The folder an upload goes to, checked before the body is read. */
  uploadFolder(context: MediaContext, folder: string): Located {
    const at = this.locate(context, folder, true);
    this.mayChange(context, at, 'upload');
    return at;
  }

  /** Streams one uploaded file into `folder` (replacing a file of that name only when `overwrite`). */
  async upload(
    context: MediaContext,
    folder: Located,
    filename: string,
    source: Readable,
    overwrite: boolean,
  ): Promise<UploadedFile> {
    const problem = checkMediaName(filename);
    const path = folder.path ? `${folder.path}/${filename}` : filename;
    if (problem) throw pathInvalid(path, problem);
    const at: Located = { ...folder, segments: [...folder.segments, filename], path };
    this.creatable(at);
    if (overwrite) this.mayChange(context, at, 'modify');
    const { size } = await this.run(at, () =>
      this.store.write(at.area, at.segments, source, { maxBytes: this.fileMaxBytes, overwrite }),
    );
    return { path, name: filename, size };
  }

  async mkdir(context: MediaContext, path: string): Promise<TreeNode> {
    const at = this.locate(context, path);
    this.changeable(at);
    this.creatable(at);
    this.mayChange(context, at, 'mkDir');
    await this.run(at, () => this.store.mkdir(at.area, at.segments));
    return { path, name: at.segments.at(-1) ?? '', type: 'dir', child: [] };
  }

  /** Gives a file or folder a new name in the same folder. */
  async rename(context: MediaContext, path: string, name: string): Promise<{ path: string }> {
    const at = this.locate(context, path);
    this.changeable(at);
    const problem = checkMediaName(name);
    const newPath = [...path.split('/').slice(0, -1), name].join('/');
    if (problem) throw pathInvalid(newPath, problem);
    const to = this.locate(context, newPath);
    this.creatable(to);
    this.mayChange(context, at, 'modify');
    await this.run(at, () => this.store.move(at.area, at.segments, to.segments));
    return { path: newPath };
  }

  /** Moves a file or folder into the folder `to` (the root: ''), keeping its name. */
  async move(context: MediaContext, path: string, toFolder: string): Promise<{ path: string }> {
    const at = this.locate(context, path);
    this.changeable(at);
    const name = at.segments.at(-1) ?? '';
    const newPath = toFolder ? `${toFolder}/${name}` : name;
    const folder = this.locate(context, toFolder, true);
    const to = this.locate(context, newPath);
    if (folder.isPublic !== at.isPublic) throw new AppError('mediaCrossArea');
    if (to.segments.length > at.segments.length && at.segments.every((segment, i) => to.segments[i] === segment)) {
      throw new AppError('mediaMoveIntoItself');
    }
    this.creatable(to);
    this.mayChange(context, at, 'modify');
    await this.run(at, () => this.store.move(at.area, at.segments, to.segments));
    return { path: newPath };
  }

  /** Removes a file, or a folder with all it holds. */
  async remove(context: MediaContext, path: string): Promise<void> {
    const at = this.locate(context, path);
    this.changeable(at);
    this.mayChange(context, at, 'delete');
    await this.run(at, () => this.store.remove(at.area, at.segments));
  }

  async download(context: MediaContext, path: string) {
    const at = this.locate(context, path);
    const file = await this.run(at, () => this.store.read(at.area, at.segments));
    return { ...file, name: at.segments.at(-1) ?? MEDIA_PUBLIC_ROOT };
  }

  /**
   * Removes the temporary files of uploads a stopped server left (not written to for an hour: an
   * upload under way in another process keeps its file fresh). Run once at start, in the background.
   */
  async sweepTemporary(now: Date): Promise<number> {
    const areas = [
      ...(await this.store.areasUnder('projects', 'fileServer')),
      ...(await this.store.areasUnder('projects', 'html')),
      PUBLIC_AREA,
    ];
    return this.store.sweep(areas, new Date(now.getTime() - TEMPORARY_FILE_STALE_MS), MEDIA_LIMITS.sizeEntriesMax);
  }

  /** Bytes of a project's files (its media library and html package), for the project's size. */
  async projectFileBytes(projectId: string): Promise<{ fileServer: number; html: number; truncated: boolean }> {
    const [fileServer, html] = await Promise.all([
      this.store.size(mediaArea(projectId), MEDIA_LIMITS.sizeEntriesMax),
      this.store.size(htmlArea(projectId), MEDIA_LIMITS.sizeEntriesMax),
    ]);
    return { fileServer: fileServer.bytes, html: html.bytes, truncated: fileServer.truncated || html.truncated };
  }
}

function countNodes(nodes: TreeNode[]): number {
  return nodes.reduce((sum, node) => sum + 1 + countNodes(node.child ?? []), 0);
}
