// Renders an API's OpenAPI document with Swagger UI, loaded from the Portal itself.
function loadSwagger() {
  if (window.SwaggerUIBundle) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const css = document.createElement('link');
    css.rel = 'stylesheet';
    css.href = '/swagger-ui/swagger-ui.css';
    document.head.append(css);
    const script = document.createElement('script');
    script.src = '/swagger-ui/swagger-ui-bundle.js';
    script.onload = resolve;
    script.onerror = reject;
    document.head.append(script);
  });
}

export async function renderDocs(element, name) {
  await loadSwagger();
  window.SwaggerUIBundle({
    domNode: element,
    url: '/api/catalog/' + encodeURIComponent(name) + '/openapi',
    supportedSubmitMethods: [],
    deepLinking: false
  });
}
