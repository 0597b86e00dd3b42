import { Modal } from 'antd';
import type { HookAPI } from 'antd/es/modal/useModal';
import { useEffect } from 'react';

/** antd's modal hook, in a chunk of its own: hands its API over once mounted (useLazyModal). */
export default function ModalHost({ onReady }: { onReady: (modal: HookAPI) => void }) {
  const [modal, holder] = Modal.useModal();
  useEffect(() => onReady(modal), [modal, onReady]);
  return holder;
}
