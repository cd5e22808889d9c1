// Runs the baseline server in a process of its own (`tsx bench/baseline-main.ts <database url> <port>`),
// so it does not share an event loop with the load generator and its CPU time can be read per process.
import { startBaseline } from './baseline-server';

const [url, port] = process.argv.slice(2);
await startBaseline(url, Number(port));
process.stdout.write('ready\n');
process.once('SIGTERM', () => process.exit(0));
