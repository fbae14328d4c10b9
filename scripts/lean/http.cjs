'use strict';
// Stands in for node:http inside undici's client and utilities, which the real module (~2 ms of every
// request command's start-up) would serve only for cases clinadmin never has:
// - http.maxHeaderSize is only the default for a Pool's maxHeaderSize, and src/api/client.ts passes it;
// - util.destroy() special-cases an http.IncomingMessage given as a request body; ours are strings.
module.exports = { maxHeaderSize: 16 * 1024, IncomingMessage: class IncomingMessageNeverUsed {} };
