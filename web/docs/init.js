// The interactive API reference at /docs (docs/dashboard.md#the-api-reference-docs): Swagger UI over the sandbox's own OpenAPI
// document, served from memory like the dashboard. An external file, not an inline script: the
// page's Content-Security-Policy allows only 'self'.
/* global SwaggerUIBundle */
window.ui = SwaggerUIBundle({
  url: '/v1/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  // Secrets stay out of web storage: a key pasted into "Authorize" lives only as long as the tab.
  persistAuthorization: false,
  // No badge from validator.swagger.io: nothing is loaded from the network.
  validatorUrl: null,
  displayRequestDuration: true,
  tryItOutEnabled: true,
  // Signed in to the dashboard? Then "Try it out" works without pasting a key: the session cookie
  // counts on /v1 only with this header (and, for writes, the same origin, which a page here has).
  requestInterceptor: (request) => {
    if (new URL(request.url, window.location.href).origin === window.location.origin) {
      request.headers['X-CRM-Dashboard'] = '1';
    }
    return request;
  },
});
