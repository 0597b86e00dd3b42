import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

const RELOAD_FLAG = 'gantry.chunkReload';

/** A code-split chunk that no longer exists (the console was rebuilt): reload once to get the new build. */
export function isChunkLoadError(error: unknown): boolean {
  const text = error instanceof Error ? `${error.name} ${error.message}` : String(error);
  return /dynamically imported module|Importing a module script failed|error loading dynamically|ChunkLoadError/i.test(
    text,
  );
}

export function reloadOnce(): boolean {
  try {
    if (sessionStorage.getItem(RELOAD_FLAG)) return false;
    sessionStorage.setItem(RELOAD_FLAG, '1');
  } catch {
    return false;
  }
  window.location.reload();
  return true;
}

/** After a successful start the flag is cleared, so a later rebuild can reload again. */
export function clearReloadFlag(): void {
  try {
    sessionStorage.removeItem(RELOAD_FLAG);
  } catch {
    // ignore
  }
}

/** The root error element: reloads on stale chunks, otherwise a plain message (kept light: no antd). */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const stale = isChunkLoadError(error);
  useEffect(() => {
    if (stale) reloadOnce();
  }, [stale]);
  const detail = error instanceof Error ? error.message : '';
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center', color: 'rgba(0,0,0,0.65)' }}>
      <h2 style={{ fontWeight: 500 }}>{t('error.internal')}</h2>
      {detail ? <p style={{ fontSize: 12 }}>{detail}</p> : null}
      <button type="button" onClick={() => window.location.reload()} style={{ padding: '4px 15px', cursor: 'pointer' }}>
        {t('common.reload')}
      </button>
    </div>
  );
}
