'use strict';
/**
 * The injected resolver of the SSRF tests, for a process under test and (through the inherited
 * NODE_OPTIONS="--require <this file>") every Node child it starts. Load it after deny-egress.cjs,
 * whose guards it wraps, so that nothing it does not answer can leave the machine.
 *
 * $FOLIO_TEST_DNS_ANSWERS is JSON {name: [[addresses of the 1st lookup], [of the 2nd], …]}: the
 * n-th lookup of a name, counted across every process, gets the n-th list (the last one repeats),
 * which is how a test stages DNS rebinding between a check in one process and a fetch in another.
 * Every lookup is appended to $FOLIO_TEST_DNS_LOG as "<pid> <name> <answer>" — the shared count,
 * and the proof that the guard really asked. Names not in the table go to the wrapped lookup.
 *
 * $FOLIO_TEST_NAT is JSON {"<public ip>:<port>": "127.0.0.1:<port>"}: connections to that public
 * address are carried to a loopback server instead, which lets a test stand up "a public host"
 * (one that redirects, say) without leaving the machine. The guard under test still sees, checks
 * and pins the public address; only the socket underneath is re-routed.
 */
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const { syncBuiltinESMExports } = require('node:module');

const table = process.env.FOLIO_TEST_DNS_ANSWERS ? JSON.parse(process.env.FOLIO_TEST_DNS_ANSWERS) : null;
const nat = process.env.FOLIO_TEST_NAT ? JSON.parse(process.env.FOLIO_TEST_NAT) : {};
const LOG = process.env.FOLIO_TEST_DNS_LOG;
if (table && LOG) install();

function install() {
  const key = (name) => String(name).toLowerCase().replace(/\.$/, '');
  const known = (name) => Object.prototype.hasOwnProperty.call(table, key(name));

  /** The answer list of this lookup of `name`: the next in its sequence, counted in the shared log. */
  const answer = (name) => {
    const seq = table[key(name)];
    let before = 0;
    try {
      before = fs
        .readFileSync(LOG, 'utf8')
        .split('\n')
        .filter((l) => l.split(' ')[1] === key(name)).length;
    } catch {
      // no lookups yet
    }
    const addresses = seq[Math.min(before, seq.length - 1)];
    fs.appendFileSync(LOG, `${process.pid} ${key(name)} ${addresses.join(',')}\n`);
    return addresses.map((address) => ({ address, family: net.isIPv6(address) ? 6 : 4 }));
  };

  const lookup = dns.lookup;
  dns.lookup = function lookupAnswered(hostname, options, callback) {
    if (!known(hostname)) return lookup.call(this, hostname, options, callback);
    const cb = typeof options === 'function' ? options : callback;
    const all = typeof options === 'object' && options !== null && options.all;
    const found = answer(hostname);
    process.nextTick(() => (all ? cb(null, found) : cb(null, found[0].address, found[0].family)));
    return {};
  };
  const lookupPromise = dns.promises.lookup;
  dns.promises.lookup = async function lookupPromiseAnswered(hostname, options) {
    if (!known(hostname)) return lookupPromise.call(this, hostname, options);
    const found = answer(hostname);
    return options && options.all ? found : found[0];
  };

  // A connection to a name in the table is made here, to the address the caller's own `lookup`
  // (a pinned one, say) or else the table picks, so deny-egress.cjs judges the real address.
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connectAnswered(...args) {
    const normalized = Array.isArray(args[0]);
    const o = normalized ? args[0][0] : args[0];
    if (!o || typeof o !== 'object' || !o.host || !known(o.host)) return connect.apply(this, args);
    const go = (address) => {
      const routed = nat[`${address}:${o.port}`];
      const target = routed ? { host: routed.split(':')[0], port: Number(routed.split(':')[1]) } : { host: address, port: o.port };
      const options = { ...o, ...target, lookup: undefined };
      if (normalized) args[0][0] = options;
      else args[0] = options;
      connect.apply(this, args);
    };
    if (typeof o.lookup === 'function') {
      o.lookup(o.host, { all: false }, (err, address) => (err ? this.destroy(err) : go(address)));
    } else go(answer(o.host)[0].address);
    return this;
  };
  // ESM importers of node:dns and node:dns/promises see the replaced functions too.
  syncBuiltinESMExports();
}
