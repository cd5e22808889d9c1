// /admin/runners/:id/register: the command and token for a new runner.
import { adminRunnerPage } from '@/components/runners/runner-route';

const page = adminRunnerPage('register');
export const generateMetadata = page.generateMetadata;
export default page.Page;
