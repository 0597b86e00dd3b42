import type { ProjectView } from '@gantry/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useLazyModal } from '../../components/LazyModal';
import { toast } from '../../services/feedback';
import { deleteProject, setProjectStatus } from '../../services/project';
import { isRequestError } from '../../services/request';
import { testId } from '../../utils/testId';
import { PROJECTS_KEY } from './useProjectLists';

type ProjectRef = Pick<ProjectView, 'id' | 'name' | 'status'>;

export interface BatchDeleteResult {
  deleted: string[];
  failed: { id: string; name: string; message: string }[];
}

/** One DELETE per project, in order; every failure is kept with its message. */
export async function deleteEach(projects: readonly Pick<ProjectView, 'id' | 'name'>[]): Promise<BatchDeleteResult> {
  const result: BatchDeleteResult = { deleted: [], failed: [] };
  for (const project of projects) {
    try {
      await deleteProject(project.id, { noMessage: true });
      result.deleted.push(project.id);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      result.failed.push({ id: project.id, name: project.name, message });
      if (isRequestError(error) && error.status === 401) break;
    }
  }
  return result;
}

/**
 * Enable/disable, delete and batch delete, each behind a confirmation (console.md §4), then the
 * project lists are refreshed. Render `contextHolder` once in the page.
 */
export function useProjectActions() {
  const { t } = useTranslation();
  // the dialogs' code loads on the first confirmation (the list opens without it)
  const { confirm, contextHolder } = useLazyModal();
  const modal = { confirm };
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: [PROJECTS_KEY] });

  const toggleStatus = (project: ProjectRef) => {
    const enabling = !project.status;
    modal.confirm({
      title: t(enabling ? 'project.enableConfirm' : 'project.disableConfirm', { name: project.name }),
      content: enabling ? undefined : t('project.disableHint'),
      okButtonProps: testId('project-status-ok'),
      onOk: async () => {
        try {
          await setProjectStatus(project.id, enabling);
          toast.success(t(enabling ? 'project.enabledToast' : 'project.disabledToast', { name: project.name }));
          await refresh();
        } catch {
          // the request layer showed the message
        }
      },
    });
  };

  const remove = (project: ProjectRef, onDeleted?: () => void) => {
    modal.confirm({
      title: t('project.deleteConfirm', { name: project.name }),
      content: t('project.deleteHint'),
      okType: 'danger',
      okButtonProps: testId('project-delete-ok'),
      onOk: async () => {
        try {
          await deleteProject(project.id);
          toast.success(t('project.deleted'));
          onDeleted?.();
          await refresh();
        } catch {
          // the request layer showed the message
        }
      },
    });
  };

  const removeMany = (projects: readonly ProjectRef[], onDone: (result: BatchDeleteResult) => void) => {
    if (projects.length === 0) return;
    modal.confirm({
      title: t('project.batchDeleteConfirm', { n: projects.length }),
      content: t('project.deleteHint'),
      okType: 'danger',
      okButtonProps: testId('project-batch-delete-ok'),
      onOk: async () => {
        const result = await deleteEach(projects);
        if (result.deleted.length > 0) toast.success(t('project.batchDeleted', { n: result.deleted.length }));
        for (const failure of result.failed) {
          toast.error(t('project.deleteFailed', { name: failure.name, message: failure.message }));
        }
        onDone(result);
        await refresh();
      },
    });
  };

  return { contextHolder, toggleStatus, remove, removeMany };
}
