import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import * as streamableHttp from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from '@modelcontextprotocol/sdk/types.js';
import type { Context, Hono } from 'hono';
import { creditsText } from '../contract/credits-text.ts';
import { openapiDocument } from '../contract/document.ts';
import { methodNotAllowed } from '../contract/errors.ts';
import type { McpTool } from '../contract/mcp-tools.ts';
import { keySchemes } from '../contract/request-rules.ts';
import type { AppEnv } from './app-env.ts';

/** The `_meta` field of a tool call that carries its Idempotency-Key (docs/mcp.md). */
export const IDEMPOTENCY_KEY_META = 'idempotencyKey';

/** The headers of the MCP request that a tool call passes on: the key, in either of its headers. */
const { apiKeyHeader } = keySchemes();
const PASSED_ON = ['authorization', apiKeyHeader.toLowerCase()];

/**
 * The MCP endpoint (docs/product-rules.md §21, R21.1–R21.5): the Model Context Protocol over
 * Streamable HTTP, stateless (a new server and transport per POST, no session), so any process
 * of the service answers any request and nothing is kept between them. Each tool call is a
 * request to the app itself (`app.request`) with the caller's key: the same edge, billing,
 * refunds, caps, rate limit and sandbox as the HTTP call, marked with the channel `mcp`
 * (`c.env.channel`, which no outside request can set) so that its ledger rows say so (R21.7).
 */
export function mcpEndpoint(app: Hono<AppEnv>, tools: readonly McpTool[]) {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  const listed = tools.map(({ operation: _operation, ...tool }) => tool);
  return async (c: Context<AppEnv>): Promise<Response> => {
    if (c.req.method !== 'POST') throw methodNotAllowed(['POST']);
    const headers: Record<string, string> = {};
    for (const name of PASSED_ON) {
      const value = c.req.header(name);
      if (value !== undefined) headers[name] = value;
    }
    const server = new Server(
      {
        name: 'advertiser-lookup-api',
        title: String(openapiDocument.info.title),
        version: String(openapiDocument.info.version),
      },
      { capabilities: { tools: { listChanged: false } } },
    );
    server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: listed }));
    server.setRequestHandler(CallToolRequestSchema, async (request) => {
      const tool = byName.get(request.params.name);
      if (tool === undefined) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
      return callTool(app, tool, request.params, headers);
    });
    const transport = new streamableHttp.WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(c.req.raw);
    } finally {
      await server.close();
    }
  };
}

/**
 * One tool call: its arguments become the operation's query string, its `_meta.idempotencyKey`
 * the Idempotency-Key header, and the operation's answer the tool's result.
 */
async function callTool(
  app: Hono<AppEnv>,
  tool: McpTool,
  params: CallToolRequest['params'],
  passedOn: Record<string, string>,
): Promise<CallToolResult> {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params.arguments ?? {})) {
    // Own properties only: `constructor` or `__proto__` is no argument of any tool.
    if (!Object.hasOwn(tool.inputSchema.properties, name))
      return refusedArguments(`${tool.name} has no argument "${name}".`);
    const type = tool.inputSchema.properties[name].type;
    if (!hasJsonType(value, type)) return refusedArguments(`The argument "${name}" must be a JSON ${type}.`);
    query.append(name, String(value));
  }
  const headers: Record<string, string> = { ...passedOn, accept: 'application/json' };
  const meta = params._meta ?? {};
  if (Object.hasOwn(meta, IDEMPOTENCY_KEY_META) && meta[IDEMPOTENCY_KEY_META] !== undefined) {
    const idempotencyKey = meta[IDEMPOTENCY_KEY_META];
    // A key the call would silently drop would let a retry pay twice.
    if (typeof idempotencyKey !== 'string')
      return refusedArguments(`_meta.${IDEMPOTENCY_KEY_META} must be a JSON string.`);
    headers['idempotency-key'] = idempotencyKey;
  }
  const search = query.size > 0 ? `?${query}` : '';
  const response = await app.request(
    `${tool.operation.path}${search}`,
    { method: tool.operation.method, headers },
    { channel: 'mcp' },
  );
  const body = (await response.json()) as Record<string, unknown>;
  const charged = Number(response.headers.get('x-credits-charged') ?? 0);
  const remaining = response.headers.get('x-credits-remaining');
  const money = [
    `${creditsText(charged)} charged`,
    ...(remaining === null ? [] : [`${creditsText(Number(remaining))} remaining`]),
    ...(response.headers.get('x-sandbox') === 'true' ? ['test key: sandbox data, free'] : []),
    ...(response.headers.get('idempotent-replayed') === 'true' ? ['replayed under the Idempotency-Key'] : []),
  ].join(', ');
  if (response.status !== 200) {
    const text = `${tool.name} failed: ${body.error} (HTTP ${response.status}): ${body.message} ${money}.`;
    return {
      isError: true,
      content: [
        { type: 'text', text },
        { type: 'text', text: JSON.stringify(body) },
      ],
      structuredContent: { ...body, status: response.status, credits_charged: charged },
    };
  }
  const truncated =
    body.truncated === true ? ' The answer is truncated (truncated: true): more entries exist than it lists.' : '';
  return {
    content: [
      { type: 'text', text: `${tool.title}: ${money}.${truncated}` },
      { type: 'text', text: JSON.stringify(body) },
    ],
    structuredContent: body,
  };
}

/** Whether `value` is of the JSON type the input schema names: `"12345"` is no integer, 12345 no string. */
function hasJsonType(value: unknown, type: unknown): boolean {
  if (type === 'string') return typeof value === 'string';
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'number') return typeof value === 'number' && Number.isFinite(value);
  return false;
}

/** Arguments the tool's input schema does not allow: refused before the API is called, nothing charged. */
function refusedArguments(message: string): CallToolResult {
  return {
    isError: true,
    content: [{ type: 'text', text: `invalid_arguments: ${message} Nothing was charged.` }],
    structuredContent: { error: 'invalid_arguments', message, credits_charged: 0 },
  };
}
