// /api/v3/*: GitLab retired API v3 and answers 410 on every path and method.
import { apiV3Gone } from '@/lib/api/legacy';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = apiV3Gone;
