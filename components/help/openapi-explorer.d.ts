// openapi-explorer ships no types; importing it only registers the <openapi-explorer> element.
declare module 'openapi-explorer';
