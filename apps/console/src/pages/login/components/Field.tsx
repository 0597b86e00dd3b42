import type { ReactNode } from 'react';

/**
 * A labelled field with its error below, styled like antd's vertical Form.Item. The login page does
 * without antd Form (form store, validator, tooltip, grid): it is the measured route.
 */
export function Field({
  id,
  label,
  error,
  children,
}: {
  id: string;
  label: string;
  error: string | undefined;
  children: ReactNode;
}) {
  return (
    <div style={{ marginBottom: error ? 8 : 24 }}>
      <label htmlFor={id} style={{ display: 'block', paddingBottom: 8, fontSize: 14, color: 'rgba(0,0,0,0.88)' }}>
        {label}
      </label>
      {children}
      {error ? (
        <div
          role="alert"
          data-testid={`${id}-error`}
          style={{ color: '#ff4d4f', fontSize: 14, lineHeight: 1.5715, minHeight: 24 }}
        >
          {error}
        </div>
      ) : null}
    </div>
  );
}
