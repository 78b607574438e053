/** HTTP status lines uWS needs spelled out (`res.writeStatus('404 Not Found')`). */
export const STATUS_LINE: Record<number, string> = {
  200: '200 OK',
  204: '204 No Content',
  302: '302 Found',
  303: '303 See Other',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  402: '402 Payment Required',
  403: '403 Forbidden',
  404: '404 Not Found',
  405: '405 Method Not Allowed',
  410: '410 Gone',
  413: '413 Payload Too Large',
  429: '429 Too Many Requests',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
};
