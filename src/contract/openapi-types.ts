/** The slice of an OpenAPI 3.1 document this service reads at run time. */
export interface OpenAPIV31 {
  openapi: string;
  info: Record<string, unknown>;
  paths: Record<string, Record<string, unknown>>;
  components: Record<string, Record<string, unknown>>;
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}
