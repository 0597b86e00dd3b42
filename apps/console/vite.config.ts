import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/** The console is served by the server at /portal/; in development Vite proxies the API to it. */
export default defineConfig({
  base: '/portal/',
  plugins: [react()],
  server: {
    port: 5173,
    proxy: { '/portal/rest': { target: process.env.GANTRY_API ?? 'http://127.0.0.1:3000', ws: true } },
  },
  build: {
    outDir: 'dist',
    sourcemap: false,
    chunkSizeWarningLimit: 1500,
    rolldownOptions: {
      treeshake: {
        // @gantry/shared is a barrel of pure modules: let each route take only what it uses, so the
        // zod schemas (and zod) stay out of the login route.
        moduleSideEffects: [
          { test: /packages[\\/]shared[\\/]src[\\/]/, sideEffects: false },
          { test: /node_modules[\\/]@rc-component[\\/]/, sideEffects: false },
        ],
      },
    },
  },
});
