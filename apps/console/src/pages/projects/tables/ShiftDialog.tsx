import { useQuery } from '@tanstack/react-query';
import { Alert, Form, Modal, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toast } from '../../../services/feedback';
import { getProject, listProjects } from '../../../services/project';
import { shiftTable, type TableShifted } from '../../../services/tableFunctions';
import type { TableSummary } from '../../../services/tables';
import { testId } from '../../../utils/testId';
import './functionTexts';
import { ProblemItem } from './ProblemItem';

/** The owner's projects offered as targets (the server's list limit; an owner has far fewer). */
const TARGETS_MAX = 1000;

interface Props {
  projectId: string;
  /** The table to shift; undefined: the dialog is closed. */
  table: TableSummary | undefined;
  onClose: () => void;
  onShifted: (shifted: TableShifted) => void;
}

/**
 * Shift table (backups-data-designer.md §4a): the table with its records copied or moved to another
 * project of the same owner. The server checks the owner, the target's grant and conflicts, and
 * answers each refusal with its message (shown by the request's error toast).
 */
export function ShiftDialog({ projectId, table, onClose, onShifted }: Props) {
  const { t } = useTranslation();
  const [target, setTarget] = useState<string>();
  const [mode, setMode] = useState<'copy' | 'move'>('copy');
  const [touched, setTouched] = useState(false);
  const [shifting, setShifting] = useState(false);
  const open = table !== undefined;
  const targets = useQuery({
    queryKey: ['tableShiftTargets', projectId],
    enabled: open,
    queryFn: async () => {
      const owner = (await getProject(projectId)).user.id;
      const page = await listProjects({ filter: { user: owner }, skip: 0, limit: TARGETS_MAX });
      return page.items.filter((project) => project.id !== projectId);
    },
  });
  const missing = touched && target === undefined;
  const none = targets.data !== undefined && targets.data.length === 0;

  const confirm = async () => {
    setTouched(true);
    if (!table || target === undefined) return;
    setShifting(true);
    try {
      const shifted = await shiftTable(projectId, table.id, { project: target, mode });
      toast.success(shifted.message);
      onShifted(shifted);
    } catch {
      // The request reported the refusal (its message); the dialog stays open to choose again.
    } finally {
      setShifting(false);
    }
  };

  return (
    <Modal
      open={open}
      title={t('designer.shiftTitle', { name: table?.title ?? table?.name ?? '' })}
      okText={t('designer.shift')}
      okButtonProps={testId('table-shift-confirm', { loading: shifting, disabled: none })}
      onOk={() => void confirm()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form layout="vertical" component="div">
        <ProblemItem
          label={t('designer.shiftTarget')}
          htmlFor="table-shift-target"
          required
          problem={missing && t('designer.shiftTargetRequired')}
        >
          <Select
            id="table-shift-target"
            data-testid="table-shift-target"
            showSearch={{ optionFilterProp: 'label' }}
            loading={targets.isLoading}
            value={target}
            onChange={setTarget}
            options={(targets.data ?? []).map((project) => ({
              value: project.id,
              label: `${project.name} (${project.id})`,
            }))}
          />
        </ProblemItem>
        {none && <Alert type="info" showIcon title={t('designer.shiftNoTargets')} style={{ marginBottom: 16 }} />}
        <Form.Item label={t('designer.shiftMode')}>
          <Radio.Group
            data-testid="table-shift-mode"
            value={mode}
            onChange={(event) => setMode(event.target.value)}
            options={[
              { value: 'copy', label: t('designer.shiftCopy') },
              { value: 'move', label: t('designer.shiftMove') },
            ]}
          />
        </Form.Item>
        <Alert type="warning" showIcon title={t('designer.shiftHint')} />
      </Form>
    </Modal>
  );
}
