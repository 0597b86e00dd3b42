import type { ModalFuncProps } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import { lazy, type ReactNode, Suspense, useCallback, useRef, useState } from 'react';

const ModalHost = lazy(() => import('./ModalHost'));

/**
 * `Modal.useModal()` whose code loads on the first confirmation, not with the page (a list page
 * shows no dialog until asked: weight/budgets.ts). Render `contextHolder` once in the page, like
 * the antd hook's; `confirm` may be called at once, the dialog opens when the code is there.
 */
export function useLazyModal(): { confirm: (config: ModalFuncProps) => void; contextHolder: ReactNode } {
  const [wanted, setWanted] = useState(false);
  const api = useRef<HookAPI | null>(null);
  const waiting = useRef<ModalFuncProps[]>([]);
  const onReady = useCallback((modal: HookAPI) => {
    api.current = modal;
    for (const config of waiting.current.splice(0)) modal.confirm(config);
  }, []);
  const confirm = useCallback((config: ModalFuncProps) => {
    if (api.current) {
      api.current.confirm(config);
      return;
    }
    waiting.current.push(config);
    setWanted(true);
  }, []);
  const contextHolder = wanted ? (
    <Suspense fallback={null}>
      <ModalHost onReady={onReady} />
    </Suspense>
  ) : null;
  return { confirm, contextHolder };
}
