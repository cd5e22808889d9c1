// /admin/runners/:id: one runner (details, managers, jobs, projects, and its actions).
import { adminRunnerPage } from '@/components/runners/runner-route';

const page = adminRunnerPage();
export const generateMetadata = page.generateMetadata;
export default page.Page;
