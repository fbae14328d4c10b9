'use strict';
// Stands in for node:child_process inside commander, which needs it only to run external subcommand
// executables (clinadmin has none); loading it eagerly costs every start-up, help included.
module.exports = new Proxy({}, { get: (_, key) => require('node:child_process')[key] });
