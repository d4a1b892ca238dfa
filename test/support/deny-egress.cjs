'use strict';
/**
 * Preloaded with NODE_OPTIONS="--require <this file>" into a process under test and, through the
 * inherited environment, into every Node child it starts. Any attempt to leave the machine is
 * recorded as one JSON line in $FOLIO_DENY_EGRESS_LOG and refused:
 *   - net.Socket#connect (plain TCP, http, https, tls, undici fetch) to anything but loopback
 *     addresses, `localhost` or a unix socket / pipe path;
 *   - dns.lookup and dns.promises.lookup of any name but `localhost` (the query itself leaves);
 *   - dns resolve* (c-ares queries go straight to the name servers);
 *   - dgram sends and connects to non-loopback addresses.
 * Each process that loads this file appends "<pid> <argv>" to $FOLIO_DENY_EGRESS_LOG.loaded, so
 * a test can prove the guard was in place and not merely that nothing was logged.
 *
 * Not covered: native code opening its own sockets, and non-Node children (redis-server).
 */
const fs = require('node:fs');
const net = require('node:net');
const dns = require('node:dns');
const dgram = require('node:dgram');

const LOG = process.env.FOLIO_DENY_EGRESS_LOG;
if (LOG) install(LOG);

function install(log) {
  fs.appendFileSync(`${log}.loaded`, `${process.pid} ${process.argv.slice(1).join(' ')}\n`);

  const isLoopbackIp = (host) => {
    const h = String(host)
      .replace(/^\[|\]$/g, '')
      .toLowerCase();
    if (net.isIPv4(h)) return h.startsWith('127.');
    if (net.isIPv6(h)) return h === '::1' || h === '0:0:0:0:0:0:0:1' || /^::ffff:127\./.test(h);
    return false;
  };
  const isLocalName = (host) => host === undefined || host === null || host === '' || host === 'localhost' || isLoopbackIp(host);

  const record = (kind, dest) => {
    const stack = (new Error().stack || '')
      .split('\n')
      .slice(3, 9)
      .map((l) => l.trim())
      .join(' | ');
    fs.appendFileSync(log, `${JSON.stringify({ pid: process.pid, kind, dest, at: new Date().toISOString(), stack })}\n`);
  };
  const refusal = (dest, code) => Object.assign(new Error(`egress refused by deny-egress.cjs: ${dest}`), { code, syscall: 'connect' });

  /** { dest, allowed } of Socket#connect's arguments in any of their forms. */
  const destinationOf = (args) => {
    let first = args[0];
    if (Array.isArray(first)) first = first[0]; // net.connect() passes [options, callback], already normalized
    if (first === null || first === undefined) return { dest: 'localhost', allowed: true };
    if (typeof first === 'object') {
      if (first.path) return { dest: `unix:${first.path}`, allowed: true };
      return { dest: `${first.host ?? 'localhost'}:${first.port}`, allowed: isLocalName(first.host) };
    }
    if (typeof first === 'string' && !/^\d+$/.test(first)) return { dest: `unix:${first}`, allowed: true };
    const host = typeof args[1] === 'string' ? args[1] : undefined;
    return { dest: `${host ?? 'localhost'}:${first}`, allowed: isLocalName(host) };
  };

  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function connectGuarded(...args) {
    const { dest, allowed } = destinationOf(args);
    if (allowed) return connect.apply(this, args);
    record('connect', dest);
    process.nextTick(() => this.destroy(refusal(dest, 'ECONNREFUSED')));
    return this;
  };

  const lookup = dns.lookup;
  dns.lookup = function lookupGuarded(hostname, options, callback) {
    if (isLocalName(hostname) || net.isIP(hostname)) return lookup.call(this, hostname, options, callback);
    const cb = typeof options === 'function' ? options : callback;
    record('dns.lookup', hostname);
    process.nextTick(cb, Object.assign(refusal(hostname, 'ENOTFOUND'), { syscall: 'getaddrinfo', hostname }));
    return {};
  };
  const lookupPromise = dns.promises.lookup;
  dns.promises.lookup = async function lookupPromiseGuarded(hostname, options) {
    if (isLocalName(hostname) || net.isIP(hostname)) return lookupPromise.call(this, hostname, options);
    record('dns.lookup', hostname);
    throw Object.assign(refusal(hostname, 'ENOTFOUND'), { syscall: 'getaddrinfo', hostname });
  };

  const guardResolve = (target, kind) => {
    for (const name of Object.keys(target)) {
      if (!/^resolve|^reverse$/.test(name) || typeof target[name] !== 'function') continue;
      target[name] = function resolveGuarded(host) {
        record(kind, `${name} ${host}`);
        const err = refusal(String(host), 'ECONNREFUSED');
        const cb = [...arguments].reverse().find((a) => typeof a === 'function');
        if (cb) return void process.nextTick(cb, err);
        return Promise.reject(err);
      };
    }
  };
  guardResolve(dns, 'dns.resolve');
  guardResolve(dns.promises, 'dns.resolve');
  guardResolve(dns.Resolver.prototype, 'dns.resolve');
  guardResolve(dns.promises.Resolver.prototype, 'dns.resolve');

  // send(msg[, offset, length][, port][, address][, callback]): the address is the first string after msg.
  const send = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function sendGuarded(...args) {
    const address = args.slice(1).find((a) => typeof a === 'string');
    if (isLocalName(address)) return send.apply(this, args);
    record('udp', address);
    const cb = args[args.length - 1];
    if (typeof cb === 'function') process.nextTick(cb, refusal(address, 'ECONNREFUSED'));
  };
  const udpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function udpConnectGuarded(port, address, callback) {
    const host = typeof address === 'string' ? address : undefined;
    if (isLocalName(host)) return udpConnect.apply(this, arguments);
    record('udp', `${host}:${port}`);
    process.nextTick(() => this.emit('error', refusal(`${host}:${port}`, 'ECONNREFUSED')));
  };
}
