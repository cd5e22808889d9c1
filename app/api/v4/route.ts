// Every /api/v4 path no route file serves: GitLab's catch-all 404.
import { routes } from '@/lib/api/handler';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({});
