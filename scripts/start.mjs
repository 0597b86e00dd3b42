// npm start: install what is missing, build the console, then run the server (migrations apply at start).
// Honours PORT, HOST, GANTRY_DATA_DIR and DATABASE_URL.
import { spawn } from 'node:child_process';
import { ensureConsoleBuilt, ensureDependencies, ROOT } from './lib.mjs';

ensureDependencies();
ensureConsoleBuilt();

const server = spawn(process.execPath, ['--import', 'tsx', 'apps/server/src/main.ts'], {
  cwd: ROOT,
  stdio: 'inherit',
  env: { NODE_ENV: 'production', ...process.env },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
