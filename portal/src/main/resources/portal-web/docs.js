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

// "Try it out" calls the Worker named in the document's servers; keyHeader (null: the API needs no key) carries the
// key that chosenKey() returns at the moment of the call.
export async function renderDocs(element, name, keyHeader, chosenKey) {
  await loadSwagger();
  window.SwaggerUIBundle({
    domNode: element,
    url: '/api/catalog/' + encodeURIComponent(name) + '/openapi',
    deepLinking: false,
    requestInterceptor: (request) => {
      const key = keyHeader ? chosenKey() : null;
      if (key && new URL(request.url, location.href).origin !== location.origin) request.headers[keyHeader] = key;
      return request;
    }
  });
}
