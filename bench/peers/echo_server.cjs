// The TypeScript peer: the `echo` tool on the official MCP TypeScript SDK
// (`@modelcontextprotocol/sdk` on npm, 1.x), run by Node.
//
//   node echo_server.cjs                        # stdio
//   node echo_server.cjs --http 127.0.0.1:PORT  # streamable HTTP at /mcp (loopback only)
//
// CommonJS, so that NODE_PATH finds the SDK where scripts/bench installs it
// (.tools/bench/node/node_modules). The tool answers as the host's sample plugin does: the text
// back, and {text, length} as structured content. Over HTTP each session gets its own server
// and transport, as the SDK's stateful examples do.
'use strict';

const http = require('node:http');
const net = require('node:net');
const { randomUUID } = require('node:crypto');
const { McpServer } = require('@modelcontextprotocol/sdk/server/mcp.js');
const { StdioServerTransport } = require('@modelcontextprotocol/sdk/server/stdio.js');
const { StreamableHTTPServerTransport } = require('@modelcontextprotocol/sdk/server/streamableHttp.js');
const { isInitializeRequest } = require('@modelcontextprotocol/sdk/types.js');
const { z } = require('zod');

function createServer() {
  const server = new McpServer({ name: 'typescript-echo', version: '1.0.0' });
  server.registerTool(
    'echo',
    {
      title: 'Echo',
      description: 'Returns the text it is given, unchanged, with its length.',
      inputSchema: { text: z.string().describe('The text to return.') },
      outputSchema: { text: z.string(), length: z.number().int().min(0) },
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
    },
    async ({ text }) => ({
      content: [{ type: 'text', text }],
      structuredContent: { text, length: [...text].length },
    }),
  );
  return server;
}

function readJson(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      try {
        resolve(body.length > 0 ? JSON.parse(body) : undefined);
      } catch (error) {
        reject(error);
      }
    });
    req.on('error', reject);
  });
}

function reply(res, status, message) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function serveHttp(address) {
  const split = address.lastIndexOf(':');
  const host = address.slice(0, split).replace(/^\[|\]$/g, '');
  const port = Number(address.slice(split + 1));
  const loopback = host === 'localhost' || host === '::1' || (net.isIPv4(host) && host.startsWith('127.'));
  if (!loopback) {
    console.error(`refusing to listen on ${host}: loopback only`);
    process.exit(2);
  }
  const transports = new Map();
  const listener = http.createServer(async (req, res) => {
    try {
      if (new URL(req.url, 'http://localhost').pathname !== '/mcp') {
        res.writeHead(404).end();
        return;
      }
      const sessionId = req.headers['mcp-session-id'];
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      let transport = sessionId ? transports.get(sessionId) : undefined;
      if (!transport) {
        if (sessionId || req.method !== 'POST' || !isInitializeRequest(body)) {
          reply(res, sessionId ? 404 : 400, sessionId ? 'Session not found' : 'No session: initialize first');
          return;
        }
        transport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          onsessioninitialized: (id) => transports.set(id, transport),
        });
        transport.onclose = () => {
          if (transport.sessionId) transports.delete(transport.sessionId);
        };
        await createServer().connect(transport);
      }
      await transport.handleRequest(req, res, body);
    } catch (error) {
      if (!res.headersSent) reply(res, 500, String(error));
    }
  });
  await new Promise((resolve) => listener.listen(port, host, resolve));
  console.error(`typescript-echo serving http://${address}/mcp`);
  const stop = () => listener.close(() => process.exit(0));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

async function main() {
  const flag = process.argv.indexOf('--http');
  if (flag >= 0) {
    await serveHttp(process.argv[flag + 1] || '127.0.0.1:8000');
  } else {
    await createServer().connect(new StdioServerTransport());
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
