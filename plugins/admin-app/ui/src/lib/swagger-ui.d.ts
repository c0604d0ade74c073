// swagger-ui-dist ships no types; the API screen uses this much of it.
declare module 'swagger-ui-dist/swagger-ui-es-bundle.js' {
  interface SwaggerUiOptions {
    spec: object;
    domNode: HTMLElement;
    validatorUrl: null;
    supportedSubmitMethods: string[];
    deepLinking: boolean;
  }
  const SwaggerUIBundle: (options: SwaggerUiOptions) => unknown;
  export default SwaggerUIBundle;
}
