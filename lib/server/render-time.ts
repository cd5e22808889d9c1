// The moment the server renders the current request's page, read once per request (React's `cache`), so
// every part of one render agrees on it: the browser hydrates relative times ("3 minutes ago") from it.
import { cache } from 'react';

export const renderTime = cache((): number => Date.now());
