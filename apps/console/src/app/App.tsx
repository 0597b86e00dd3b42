import { useState } from 'react';
import { RouterProvider } from 'react-router';
import { CoreProviders } from './coreProviders';
import { createAppRouter } from './router';

export default function App() {
  const [router] = useState(createAppRouter);
  return (
    <CoreProviders>
      <RouterProvider router={router} />
    </CoreProviders>
  );
}
