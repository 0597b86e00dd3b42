import { randomBytes } from 'node:crypto';
import { readdir, rm, stat } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import {
  appInfoOf,
  LANGUAGES,
  type Language,
  type ProjectCreateBody,
  type ProjectFromTemplateBody,
  type ProjectView,
  RestoreRule,
  TEMPLATE_LEFT_OUT,
  TEMPLATE_TASK_INSTALL,
  TEMPLATE_TASK_PUBLISH,
  type TemplateListQuery,
  type TemplatePatchBody,
  type TemplatePublishBody,
  type TemplateView,
  templateModules,
  templatePublishBody,
  templateText,
} from '@gantry/shared';
import type { SQL } from 'drizzle-orm';
import { z } from 'zod';
import { AppError } from '../../lib/app-error.js';
import { ArchiveProblem } from '../../lib/archive/archive-problem.js';
import { ArchiveReader } from '../../lib/archive/archive-reader.js';
import type { Clock } from '../../lib/clock.js';
import type { FileStore } from '../../lib/file-store.js';
import { isPlainObject } from '../../lib/list-query/bad-query.js';
import type { Storage } from '../../lib/storage.js';
import {
  inMarket,
  mayManageTemplate,
  mayUseTemplate,
  mayViewTemplate,
  templatePublisher,
} from '../../policy/policy.js';
import type { Actor } from '../audit/audit.service.js';
import type { BackupRepository } from '../backups/backup.repository.js';
import type { BackupService } from '../backups/backup.service.js';
import { writeBackup } from '../backups/backup-export.js';
import { RestoreJournals } from '../backups/backup-restore.js';
import { problemText, restoreArchive } from '../backups/restore-archive.js';
import type { ProjectRepository } from '../projects/project.repository.js';
import { type ProjectService, removeProjectFiles } from '../projects/project.service.js';
import type { TaskContext, TaskEngine } from '../tasks/task.engine.js';
import { TaskError, TaskPaused, taskType } from '../tasks/task.engine.js';
import type { UserRow } from '../users/user.repository.js';
import { presentTemplate, templatePicture, type Viewer } from './template.presenter.js';
import type { TemplateRepository, TemplateRow } from './template.repository.js';
import { BUILTIN_TEMPLATES, type BuiltinTemplate, builtinContent, builtinVersion } from './template-builtins.js';
import { TemplateImageStore } from './template-image-store.js';
import { TemplateFiles, writePackage } from './template-package.js';

export interface TemplateDeps {
  repo: TemplateRepository;
  backupRepo: BackupRepository;
  projectRepo: Pick<ProjectRepository, 'permissionsOf' | 'find'>;
  projects: ProjectService;
  /** Receives and verifies an uploaded package (the backup upload's own checks). */
  backups: Pick<BackupService, 'receiveArchive' | 'uploadMaxBytes'>;
  store: FileStore;
  storage: Storage;
  tasks: TaskEngine;
  clock: Clock;
  dataDir: string;
  /** Object storage, where packages and images live when it is configured. */
  shelf?: FileStore | undefined;
}

const publishTask = taskType(
  TEMPLATE_TASK_PUBLISH,
  z.object({
    templateId: z.string(),
    body: templatePublishBody.omit({ requestId: true }),
    source: z.enum(['platform', 'tenant']),
    ownerId: z.string(),
    language: z.enum(LANGUAGES),
  }),
);
type PublishParams = z.infer<typeof publishTask.params>;

const installTask = taskType(
  TEMPLATE_TASK_INSTALL,
  z.object({
    projectId: z.string(),
    templateId: z.string(),
    modules: z.array(z.string()),
    language: z.enum(LANGUAGES),
  }),
);
type InstallParams = z.infer<typeof installTask.params>;

/** Packages looked at by one sweep of object storage. */
const TEMPLATE_SWEEP_MAX = 100_000;

const BUILTINS = new Map(BUILTIN_TEMPLATES.map((template) => [template.id, template]));

/**
 * Solution templates (issue 14): the gallery and preview (`GET templates`, `GET templates/{id}`,
 * public), the built-in starter templates (made from code on first use), and new projects made from a
 * template (`POST project/_template`): the project is created within the grant, then the template's
 * package (a project backup archive) is verified and installed by the restore's code as a task.
 */
export class TemplateService {
  private readonly files: TemplateFiles;
  /** Covers and description images uploaded for templates. */
  readonly images: TemplateImageStore;
  private readonly journals: RestoreJournals;
  private builtins: Promise<void> | undefined;

  constructor(private readonly deps: TemplateDeps) {
    this.files = new TemplateFiles(deps.dataDir, deps.shelf);
    this.images = new TemplateImageStore(deps.dataDir, deps.shelf);
    this.journals = new RestoreJournals(deps.dataDir);
    deps.tasks.register(installTask, (context, params) => this.runInstall(context, params));
    deps.tasks.register(publishTask, (context, params) => this.runPublish(context, params));
  }

  /** The largest template package an import may bring (a backup upload's limit). */
  get uploadMaxBytes(): number {
    return this.deps.backups.uploadMaxBytes;
  }

  /**
   * `POST templates`: publishes a project the caller owns as a template (a task with progress): the
   * administrator to the market, a tenant for its own use. Answers the task.
   */
  async publish(user: UserRow, body: TemplatePublishBody, language: Language) {
    await this.checkImages(body);
    await this.deps.projects.visible(user, body.projectId);
    const { requestId, ...card } = body;
    const publisher = templatePublisher(user);
    const params: PublishParams = {
      templateId: TemplateService.newId(),
      body: card,
      source: publisher.source,
      ownerId: publisher.ownerId,
      language,
    };
    const task = await this.deps.tasks.submit(publishTask, {
      projectId: body.projectId,
      requester: user.id,
      requestId,
      params,
    });
    return { id: task.id, requestId: task.requestId, templateId: params.templateId };
  }

  private async runPublish(context: TaskContext, params: PublishParams): Promise<string> {
    const { task } = context;
    const { body } = params;
    const project = await this.deps.projectRepo.find(body.projectId);
    if (!project) throw new TaskError(templateText('template.projectGone', params.language));
    const backupRepo = this.deps.backupRepo;
    const row = await writeBackup(
      {
        id: params.templateId,
        projectId: body.projectId,
        projectName: project.name,
        name: body.name,
        item: { mongodb: body.modules.length > 0, fileServer: body.fileServer, html: body.html },
        modules: body.modules,
        excludedDirs: [],
        safety: false,
        requester: task.requester,
        leaveOut: TEMPLATE_LEFT_OUT,
      },
      {
        // The package is no backup of the project: no record in its backup list.
        repo: {
          collectionStats: (id) => backupRepo.collectionStats(id),
          documentLines: (...args) => backupRepo.documentLines(...args),
          insert: async () => {},
        },
        store: this.deps.store,
        files: this.files,
        now: this.deps.clock,
      },
      context,
    );
    const at = this.deps.clock();
    try {
      await this.deps.repo.insert({
        id: params.templateId,
        name: body.name,
        developer: body.developer,
        contact: body.contact,
        industry: body.industry,
        intro: body.intro,
        cover: body.cover || null,
        description: body.description,
        images: body.images,
        appInfo: appInfoOf(row.documents),
        planDetail: body.plan_detail ?? null,
        modules: row.documents,
        source: params.source,
        ownerId: params.ownerId,
        published: true,
        file: row.file ?? `${params.templateId}.zip`,
        bytes: row.bytes,
        version: null,
        sourceProjectId: body.projectId,
        createdAt: at,
        updatedAt: at,
      });
    } catch (error) {
      await this.files.discard('', `${params.templateId}.zip`);
      throw error;
    }
    return templateText('template.published', params.language, { name: body.name });
  }

  /** A card's cover and images must be images uploaded for templates, still stored. */
  private async checkImages(card: { cover?: string | null | undefined; images?: string[] | undefined }) {
    if (card.cover) await this.images.checkExists('cover', [card.cover]);
    if (card.images) await this.images.checkExists('images', card.images);
  }

  /** The template if `user` may manage it (else 404 for the unseen, 403 for the seen). */
  private async managed(user: UserRow, id: string): Promise<TemplateRow> {
    const row = await this.visible(user, id);
    if (!mayManageTemplate(user, row)) throw new AppError('forbidden');
    return row;
  }

  /** `PATCH templates/{id}`: the card or published, by its owner; a built-in only (un)published. */
  async patch(user: UserRow, id: string, body: TemplatePatchBody, language: Language): Promise<TemplateView> {
    const row = await this.managed(user, id);
    const { plan_detail, cover, ...rest } = body;
    if (row.source === 'builtin' && Object.keys(body).some((key) => key !== 'published')) {
      throw new AppError('forbidden');
    }
    await this.checkImages(body);
    const updated = await this.deps.repo.update(id, {
      ...rest,
      ...(cover !== undefined ? { cover: cover || null } : {}),
      ...(plan_detail !== undefined ? { planDetail: plan_detail ?? null } : {}),
      updatedAt: this.deps.clock(),
    });
    if (!updated) throw new AppError('notFound');
    return presentTemplate(updated, await this.viewer(user, language), BUILTINS.get(id));
  }

  /** `DELETE templates/{id}`: by its owner, with its package; built-ins are unpublished instead. */
  async remove(user: UserRow, id: string): Promise<void> {
    const row = await this.managed(user, id);
    if (row.source === 'builtin') throw new AppError('forbidden');
    await this.deps.repo.remove(id);
    await this.files.discard('', row.file);
  }

  /**
   * `POST templates/import`: a package file (a project backup archive, e.g. one exported from
   * another server) verified whole like an uploaded backup, then listed as the caller's template.
   */
  async import(
    user: UserRow,
    filename: string,
    source: Readable,
    card: { name?: string | undefined; industry?: string | undefined },
    language: Language,
  ): Promise<TemplateView> {
    await this.ensureBuiltins();
    const received = await this.deps.backups.receiveArchive(filename, source, undefined, this.files, '');
    const publisher = templatePublisher(user);
    const id = TemplateService.newId();
    const modules = Object.fromEntries(
      Object.entries(received.manifest.modules).map(([module, m]) => [module, m.documents]),
    );
    const at = this.deps.clock();
    try {
      await this.deps.repo.insert({
        id,
        name: card.name || received.manifest.project.name || received.base,
        developer: user.name,
        industry: card.industry ?? 'other',
        appInfo: appInfoOf(modules),
        modules,
        source: publisher.source,
        ownerId: publisher.ownerId,
        published: true,
        file: received.file,
        bytes: received.size,
        sourceProjectId: received.manifest.project.id,
        createdAt: at,
        updatedAt: at,
      });
    } catch (error) {
      await this.files.discard('', received.file);
      throw error;
    }
    return this.get(user, id, language);
  }

  /**
   * The built-in templates, written once per process (on first use): a row and package per template
   * of the code, rebuilt when the code's description changed (its version), installs kept.
   */
  ensureBuiltins(): Promise<void> {
    this.builtins ??= this.writeBuiltins().catch((error: unknown) => {
      this.builtins = undefined;
      throw error;
    });
    return this.builtins;
  }

  private async writeBuiltins(): Promise<void> {
    const { repo, clock } = this.deps;
    for (const template of BUILTIN_TEMPLATES) {
      const content = builtinContent(template);
      const version = builtinVersion(template, content);
      const current = await repo.find(template.id);
      const file = `builtin-${template.id}-${version}.zip`;
      if (current?.version === version && (await this.files.has('', current.file))) continue;
      const at = clock();
      const written = await writePackage(
        this.files,
        file,
        content,
        { id: template.id, name: template.name.zh_Hans },
        new Date(Date.UTC(2026, 0, 1)),
      );
      await repo.upsertBuiltin({
        id: template.id,
        // Both languages, so that a search in either finds it; answers show the caller's.
        name: `${template.name.zh_Hans} · ${template.name.en}`,
        developer: template.developer.en,
        contact: template.contact,
        industry: template.industry,
        intro: template.intro.en,
        description: template.description.en,
        images: [],
        appInfo: appInfoOf(written.modules),
        modules: written.modules,
        source: 'builtin',
        ownerId: null,
        published: true,
        file,
        bytes: written.bytes,
        version,
        createdAt: at,
        updatedAt: at,
      });
      if (current && current.file !== file) await this.files.discard('', current.file);
    }
  }

  private async viewer(user: UserRow | undefined, language: Language): Promise<Viewer> {
    const permissions = user && !user.isAdmin ? await this.deps.projectRepo.permissionsOf(user.id) : undefined;
    return { user, permissions, language };
  }

  async list(
    user: UserRow | undefined,
    query: TemplateListQuery,
    language: Language,
  ): Promise<{ items: TemplateView[]; total: number }> {
    await this.ensureBuiltins();
    const [{ rows, total }, viewer] = await Promise.all([
      this.deps.repo.list(user, { nameContains: query.name_contains, industry: query.industry }, query),
      this.viewer(user, language),
    ]);
    return { items: rows.map((row) => presentTemplate(row, viewer, BUILTINS.get(row.id))), total };
  }

  /** A template the caller may see; any other is 'not found' (no probing). */
  private async visible(user: UserRow | undefined, id: string): Promise<TemplateRow> {
    await this.ensureBuiltins();
    const row = await this.deps.repo.find(id);
    if (!row || !mayViewTemplate(user, row)) throw new AppError('notFound');
    return row;
  }

  async get(user: UserRow | undefined, id: string, language: Language): Promise<TemplateView> {
    const row = await this.visible(user, id);
    return presentTemplate(row, await this.viewer(user, language), BUILTINS.get(row.id));
  }

  /**
   * A template's cover when it has none of its own (drawn from its name and industry), and the
   * built-ins' description pictures, to whoever may see the template (`mayViewTemplate`; any other
   * caller: not found, as for the template itself). `cacheable`: a market template's, which everyone
   * sees; a private one's is never stored (no-store).
   */
  async picture(
    user: UserRow | undefined,
    id: string,
    kind: 'cover' | 'overview',
    language: Language,
  ): Promise<{ svg: string; cacheable: boolean }> {
    const row = await this.visible(user, id);
    const svg = templatePicture(row, BUILTINS.get(row.id), kind, language);
    if (svg === undefined) throw new AppError('notFound');
    return { svg, cacheable: inMarket(row) };
  }

  /** The package file, to its owner only (the administrator for built-in and platform templates). */
  async download(user: UserRow, id: string): Promise<{ stream: Readable; name: string; size: number }> {
    const row = await this.visible(user, id);
    if (!presentTemplate(row, { user, permissions: undefined, language: 'en' }).mine) throw new AppError('notFound');
    const kept = await this.files.stream('', row.file);
    if (!kept) throw new AppError('notFound');
    return { stream: kept.stream, name: `${row.id}.zip`, size: kept.size };
  }

  /**
   * `POST project/_template`: checks the template (seen, and allowed by the caller's project
   * permissions), creates the project through the project service (grant, owner, licence, audit),
   * then installs the template's content as a task. Answers the project and the task.
   */
  async createProject(
    actor: Actor,
    body: ProjectFromTemplateBody,
    language: Language,
  ): Promise<ProjectView & { task: { id: string; requestId: string } }> {
    const { user } = actor;
    const template = await this.visible(user, body.type).catch((error: unknown) => {
      throw error instanceof AppError && error.code === 'notFound'
        ? new AppError('validation', { fields: { type: 'error.notFound' } })
        : error;
    });
    const permissions = user.isAdmin ? undefined : await this.deps.projectRepo.permissionsOf(user.id);
    if (!mayUseTemplate(user, permissions, template)) {
      throw new AppError('projectTypeNotAllowed', { fields: { projectType: 'project.typeNotAllowed' } });
    }
    const { projectId, collections, url: _url, id, ...rest } = body;
    const modules = templateModules(Object.keys(template.modules), collections);
    // Refused before the project is made when the template's tables alone exceed the grant; the
    // install's commit checks the result again (the table gate, licence/table-gate.ts).
    const tables = modules.includes('table') ? (template.modules.table ?? 0) : 0;
    const limit = rest.grant?.flow.tableCount ?? 0;
    if (tables > limit) throw new AppError('tablesOverGrant', { params: { count: tables, max: limit } });
    const projectBody: ProjectCreateBody = {
      ...rest,
      projectType: 'template',
      type: template.id,
      ...(projectId || id ? { id: projectId ?? id } : {}),
    };
    const project = await this.deps.projects.create(actor, projectBody);
    const params: InstallParams = {
      projectId: project.id,
      templateId: template.id,
      modules,
      language,
    };
    try {
      // A platform task (no project): its record and message outlive a project removed when it fails.
      const task = await this.deps.tasks.submit(installTask, { projectId: null, requester: user.id, params });
      return { ...project, task: { id: task.id, requestId: task.requestId } };
    } catch (error) {
      await this.removeProject(project.id, '');
      throw error;
    }
  }

  private async runInstall(context: TaskContext, params: InstallParams): Promise<string> {
    const { task } = context;
    try {
      const template = await this.deps.repo.find(params.templateId);
      if (!template) throw new TaskError(templateText('template.gone', params.language));
      const opened = this.files.openLocal('', template.file, (local) => ArchiveReader.open(local));
      const reader = await opened.catch((error: unknown) => {
        if (error instanceof ArchiveProblem) throw new TaskError(problemText(error, params.language));
        if (isPlainObject(error) && error.code === 'ENOENT')
          throw new TaskError(templateText('template.gone', params.language));
        throw error;
      });
      try {
        // A package is untrusted input: verified whole, as an uploaded backup is.
        const { written } = await restoreArchive(
          context,
          reader,
          {
            projectId: params.projectId,
            language: params.language,
            verify: [0, 0.4],
            plan: (manifest) => {
              const modules = params.modules.filter((module) => module in manifest.modules);
              const kinds = (['fileServer', 'html'] as const).filter((kind) => manifest.item[kind]);
              return {
                rules: Object.fromEntries(modules.map((module) => [module, RestoreRule.Replace])),
                kinds: [...kinds],
                record: {
                  name: templateText('template.installRecord', params.language, { name: template.name }).slice(0, 64),
                  item: {
                    fileServer: kinds.includes('fileServer'),
                    html: kinds.includes('html'),
                    mongodb: modules.length > 0,
                  },
                  bytes: template.bytes,
                  restoreFile: null,
                },
              };
            },
          },
          { repo: this.deps.backupRepo, store: this.deps.store, journals: this.journals, clock: this.deps.clock },
        );
        await this.deps.repo.countInstall(template.id);
        const documents = Object.values(written).reduce((sum, n) => sum + n, 0);
        context.log(`${documents} documents installed into ${params.projectId}`);
        return templateText('template.installed', params.language, { name: template.name });
      } finally {
        await reader.close();
      }
    } catch (error) {
      // Paused: the same work runs again when resumed. Anything else: the half project goes.
      if (!(error instanceof TaskPaused && error.reason === 'pause'))
        await this.removeProject(params.projectId, task.id);
      throw error;
    }
  }

  /** Removes a project whose install did not commit, with its files. */
  private async removeProject(projectId: string, taskId: string): Promise<void> {
    if (await this.deps.repo.removeUninstalled(projectId, taskId)) {
      await removeProjectFiles(this.deps.storage, this.deps.store, projectId);
    }
  }

  /**
   * After a restart: projects of installs that failed (a stopped server fails its running tasks)
   * and never committed are removed; leftover partial packages go. `inDatabase: false`: the start's
   * recovery check (`leftOver`) found no failed install whose project is still there, so that
   * statement is not run.
   */
  async recover({ inDatabase = true }: { inDatabase?: boolean } = {}): Promise<number> {
    let removed = 0;
    const failed = inDatabase ? await this.deps.repo.failedInstalls(TEMPLATE_TASK_INSTALL) : [];
    for (const { taskId, projectId } of failed) {
      const before = await this.deps.repo.removeUninstalled(projectId, taskId);
      if (before) {
        await removeProjectFiles(this.deps.storage, this.deps.store, projectId);
        removed++;
      }
    }
    // Uploaded images no template names, a day after their upload (a publish dialog left open).
    await this.images.sweep(() => this.deps.repo.imageNames(), this.deps.clock().getTime() - 24 * 60 * 60 * 1000);
    const hourAgo = this.deps.clock().getTime() - 60 * 60 * 1000;
    const names = await readdir(this.files.folder()).catch((): string[] => []);
    let kept: Set<string> | undefined;
    for (const name of names) {
      const changed = (await stat(this.files.archive('', name)).catch(() => undefined))?.mtimeMs ?? 0;
      kept ??= await this.deps.repo.files();
      if (!kept.has(name) && changed < hourAgo)
        await rm(this.files.archive('', name), { force: true, recursive: true });
    }
    // With object storage: packages no template names (a publish stopped between store and row).
    for await (const { name, updateTime } of this.files.shelved('', TEMPLATE_SWEEP_MAX)) {
      kept ??= await this.deps.repo.files();
      if (!kept.has(name) && updateTime.getTime() < hourAgo) await this.files.discard('', name);
    }
    return removed;
  }

  /** True in the database when `recover` has a failed install's project to remove. */
  leftOver(): SQL {
    return this.deps.repo.installsLeftOver(TEMPLATE_TASK_INSTALL);
  }

  /** For tests and the bench: a new id no template has. */
  static newId(): string {
    return `tpl${randomBytes(8).toString('hex')}`;
  }

  builtin(id: string): BuiltinTemplate | undefined {
    return BUILTINS.get(id);
  }
}
