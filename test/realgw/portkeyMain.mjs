// Child-process entry that runs the real third-party gateway @portkey-ai/gateway as its CLI does
// (build/start-server.js, `--port=0 --headless`), but bound to 127.0.0.1: its start script calls
// serve({fetch, port}) without a host, which would listen on every interface. Prints `LISTENING <port>`.
import net from 'node:net';
import { createRequire } from 'node:module';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  // serve() calls listen(port, hostname, callback) with hostname undefined.
  if (typeof args[0] === 'number' && args[1] === undefined) args[1] = '127.0.0.1';
  this.once('listening', () => {
    const address = this.address();
    process.stdout.write(`\nLISTENING ${typeof address === 'object' && address ? address.port : 0}\n`);
  });
  return listen.apply(this, args);
};
process.argv.push('--port=0', '--headless');
const main = createRequire(import.meta.url).resolve('@portkey-ai/gateway/build/start-server.js');
await import(main);
