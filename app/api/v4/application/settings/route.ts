// GET/PUT /api/v4/application/settings: instance settings (admin), the runner-related subset.
import { routes } from '@/lib/api/handler';
import { getSettingsEndpoint, updateSettingsEndpoint } from '@/lib/settings/api';

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = routes({ GET: getSettingsEndpoint, PUT: updateSettingsEndpoint });
