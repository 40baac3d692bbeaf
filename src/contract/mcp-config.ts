/** The name the service's MCP server goes by in a customer's MCP client configuration. */
export const MCP_SERVER_NAME = 'advertiser-lookup';

/** What a customer writes in place of the key in the configuration shown to them. */
export const KEY_PLACEHOLDER = 'YOUR_API_KEY';

/**
 * The configuration a customer pastes into an MCP client (the `mcpServers` form most clients
 * read: a remote server over Streamable HTTP with its headers): the service's `/mcp` and the key
 * as a Bearer token (docs/product-rules.md R21.1, R21.6). The account page and docs/mcp.md show it.
 */
export function mcpClientConfig(publicUrl: URL, key = KEY_PLACEHOLDER): string {
  const server = {
    type: 'http',
    url: new URL('/mcp', publicUrl).href,
    headers: { Authorization: `Bearer ${key}` },
  };
  return JSON.stringify({ mcpServers: { [MCP_SERVER_NAME]: server } }, null, 2);
}
