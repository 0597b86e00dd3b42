import type { LicenceCheck } from '@gantry/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import i18n from '../../../i18n';
import { refreshAfterLicence, uploadLicence, verifyLicence } from '../../../services/licenceFile';
import { isRequestError } from '../../../services/request';

export const WIZARD_STEPS = ['machine', 'file', 'verify', 'result'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

/** The refusal's message as the server wrote it (signature, machine, expiry, …). */
export function refusalText(error: unknown): string {
  if (isRequestError(error)) return error.message;
  return i18n.t('request.network');
}

/**
 * The upload wizard's state: machine code → file → verify (nothing changes) → apply (after the
 * administrator confirms). Applying refreshes everything that reads the platform licence.
 */
export function useLicenceWizard() {
  const client = useQueryClient();
  const [step, setStep] = useState<WizardStep>('machine');
  const [file, setFile] = useState<File | null>(null);
  const verify = useMutation<LicenceCheck, unknown, File>({ mutationFn: verifyLicence });
  const apply = useMutation<LicenceCheck, unknown, File>({
    mutationFn: uploadLicence,
    onSuccess: () => refreshAfterLicence(client),
  });

  return {
    step,
    file,
    verify,
    apply,
    choose: (next: File | null) => {
      setFile(next);
      verify.reset();
    },
    goTo: setStep,
    startVerify: () => {
      if (!file) return;
      setStep('verify');
      verify.mutate(file);
    },
    chooseAgain: () => {
      setFile(null);
      verify.reset();
      apply.reset();
      setStep('file');
    },
    confirm: () => {
      if (!file || !verify.isSuccess) return;
      setStep('result');
      apply.mutate(file);
    },
  };
}
