// Preloaded (node --import) into third-party servers the tests start: forces every listen() onto 127.0.0.1 and reports
// the real port on stderr as "LOOPBACK_PORT <n>", so servers that bind all interfaces and take PORT=0 are usable.
import net from 'node:net';

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === 'number' || (typeof args[0] === 'string' && /^\d+$/.test(args[0]))) {
    const port = Number(args[0]);
    const rest = args.slice(1).filter((a) => typeof a !== 'string');
    args = [port, '127.0.0.1', ...rest];
  }
  this.once('listening', () => {
    const a = this.address();
    if (a && typeof a === 'object') process.stderr.write(`LOOPBACK_PORT ${a.port}\n`);
  });
  return listen.apply(this, args);
};
