// /admin/runners/:id/edit: a runner's edit form and token reset.
import { adminRunnerPage } from '@/components/runners/runner-route';

const page = adminRunnerPage('edit');
export const generateMetadata = page.generateMetadata;
export default page.Page;
