'use strict';
// Stands in for node:http2 inside undici's HTTP/2 client, which reads these constants when it loads but
// opens a session only for origins with allowH2, which clinadmin never sets. Loading the real module
// (and with it tls and crypto) costs ~7 ms of every command's start-up, so it waits for a first connect.
// The values are fixed by RFC 9113 (pseudo-headers) and its error codes.
module.exports = {
  constants: {
    HTTP2_HEADER_AUTHORITY: ':authority',
    HTTP2_HEADER_METHOD: ':method',
    HTTP2_HEADER_PATH: ':path',
    HTTP2_HEADER_SCHEME: ':scheme',
    HTTP2_HEADER_CONTENT_LENGTH: 'content-length',
    HTTP2_HEADER_EXPECT: 'expect',
    HTTP2_HEADER_STATUS: ':status',
    HTTP2_HEADER_PROTOCOL: ':protocol',
    NGHTTP2_REFUSED_STREAM: 7,
    NGHTTP2_CANCEL: 8,
  },
  connect: (...args) => require('node:http2').connect(...args),
};
